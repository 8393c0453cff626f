"""The saints_of_the_day skill's text: Roman Martyrology entries for a date.

A few famous days are written out; every other day gets deterministic generic commemorations.
"""

from __future__ import annotations

from datetime import date

from devtools.fake_magisterium.liturgy import long_date

NOT_FOUND = "No martyrology data found."

FAMOUS: dict[tuple[int, int], tuple[str, ...]] = {
    (1, 1): (
        "The solemnity of Mary, the holy Mother of God, on the octave day of the Nativity "
        "of the Lord, when the Child also received the name of Jesus.",
    ),
    (1, 24): (
        "The memorial of Saint Francis de Sales, bishop of Geneva and Doctor of the Church, "
        "who laboured to bring the people of the Chablais back to the faith and taught the way "
        "of devotion to every state of life; he fell asleep in the Lord at Lyon on 28 December "
        "1622, and on this day his body was laid to rest at Annecy.",
    ),
    (1, 28): (
        "The memorial of Saint Thomas Aquinas, priest of the Order of Preachers and "
        "Doctor of the Church, whose relics were translated on this day to Toulouse; he "
        "died at the abbey of Fossanova in 1274.",
    ),
    (3, 17): (
        "In Ireland, Saint Patrick, bishop, who, once carried there as a captive, "
        "returned to preach the Gospel and became the apostle of the Irish.",
    ),
    (3, 19): (
        "At Nazareth, the commemoration of Saint Joseph, spouse of the Blessed Virgin "
        "Mary, a just man of the house of David, who cared for the Son of God as a father "
        "and whom the Church honours as her patron.",
    ),
    (6, 29): (
        "At Rome, the solemnity of the holy apostles Peter and Paul: Peter, who first "
        "confessed Christ as the Son of the living God, was crucified on the Vatican hill; "
        "Paul, the apostle of the nations, was beheaded on the Ostian Way.",
    ),
    (7, 31): (
        "At Rome, Saint Ignatius of Loyola, priest, who founded the Society of Jesus for "
        "the greater glory of God and died in 1556.",
    ),
    (8, 9): (
        "At Auschwitz in Poland, Saint Teresa Benedicta of the Cross (Edith Stein), virgin of "
        "the Order of Discalced Carmelites and martyr, who, born a Jew and a seeker of truth, "
        "found Christ, and was put to death in the gas chamber in 1942.",
    ),
    (8, 15): (
        "The solemnity of the Assumption of the Blessed Virgin Mary, Mother of God, who, "
        "having completed the course of her earthly life, was taken up body and soul "
        "into heavenly glory.",
    ),
    (8, 28): (
        "At Hippo in Africa, Saint Augustine, bishop and Doctor of the Church, who after a "
        "restless youth was converted and baptized by Saint Ambrose; he died in 430.",
    ),
    (9, 5): (
        "At Calcutta in India, Saint Teresa of Calcutta (Agnes Gonxha Bojaxhiu), virgin, who "
        "founded the Missionaries of Charity to serve Christ in the poorest of the poor and "
        "died in 1997.",
    ),
    (9, 20): (
        "The memorial of Saint Andrew Kim Tae-gon, priest, Saint Paul Chong Ha-sang and their "
        "companions, martyrs in Korea, one hundred and three in number, who in the persecutions "
        "of 1839, 1846 and 1866 bore witness to Christ by their blood.",
    ),
    (10, 1): (
        "The memorial of Saint Thérèse of the Child Jesus, virgin and Doctor of the Church, "
        "who, entering the Carmel of Lisieux while still young, became a teacher of holiness in "
        "simplicity of heart and trust in God; she died on 30 September 1897.",
    ),
    (10, 4): (
        "At Assisi in Umbria, Saint Francis, deacon, who embraced poverty to follow Christ "
        "and gathered the Friars Minor; he died in 1226.",
    ),
    (10, 11): (
        "At Rome, Saint John XXIII, pope, who convoked the Second Vatican Council, opened on "
        "this day in 1962; he died on 3 June 1963.",
    ),
    (10, 15): (
        "The memorial of Saint Teresa of Jesus, virgin and Doctor of the Church, who restored "
        "the Carmelite rule in the Discalced and, a mother of spiritual persons, taught the "
        "way of prayer; she died at Alba de Tormes in Spain in 1582.",
    ),
    (10, 22): (
        "At Rome, Saint John Paul II, pope, who called all people to open wide the doors to "
        "Christ; his pontificate was inaugurated on this day in 1978, and he died on 2 April "
        "2005.",
    ),
    (11, 1): (
        "The solemnity of All Saints, who reign with Christ in glory: a great multitude "
        "from every nation, tribe, people and tongue.",
    ),
    (11, 30): (
        "At Patras in Achaia, Saint Andrew, apostle, brother of Simon Peter and the first "
        "called of the Twelve, who preached the Gospel after the Lord's Ascension and, by "
        "tradition, died upon a cross.",
    ),
    (12, 7): (
        "The memorial of Saint Ambrose, bishop of Milan and Doctor of the Church, who fell "
        "asleep in the Lord on Holy Saturday, 4 April 397, but is venerated on this day, when, "
        "still a catechumen, he received the episcopate of that famous see.",
    ),
    (12, 8): (
        "The solemnity of the Immaculate Conception of the Blessed Virgin Mary, who by a "
        "singular grace of God, in view of the merits of Christ, was preserved from every "
        "stain of original sin from the first moment of her conception.",
    ),
    (12, 25): (
        "In Bethlehem of Judah, the Nativity of our Lord Jesus Christ according to the "
        "flesh: the eternal Son of God, conceived by the Holy Spirit, was born of the "
        "Virgin Mary and became man.",
    ),
}

GENERIC: tuple[str, ...] = (
    "At Rome, the commemoration of many holy martyrs who suffered in the persecutions of the "
    "first centuries, whose names are known to God.",
    "In Africa, the commemoration of holy confessors who kept the faith in times of trial.",
    "In various places, the commemoration of holy virgins who consecrated their lives to Christ.",
    "In the East, the commemoration of holy monks and hermits who sought God in prayer and "
    "penance.",
    "In many lands, the commemoration of holy missionaries who carried the Gospel to peoples "
    "who had not yet heard it.",
    "The commemoration of holy bishops who shepherded their flocks with wisdom and charity.",
    "The commemoration of holy men and women of every state of life whose witness the Church "
    "remembers on this day.",
    "In Asia, the commemoration of holy martyrs who gave their lives for Christ in modern "
    "persecutions.",
)

CLOSING = "*And elsewhere, many other holy martyrs, confessors and holy virgins.*"


def entries(day: date) -> list[str]:
    famous = FAMOUS.get((day.month, day.day), ())
    # A step of 3 through 8 entries never repeats within three picks.
    generic = [GENERIC[(day.toordinal() + 3 * k) % len(GENERIC)] for k in range(3)]
    return [*famous, *generic[: max(1, 3 - len(famous))]]


def format_martyrology(day: date) -> str:
    numbered = [f"{n}. {text}" for n, text in enumerate(entries(day), 1)]
    return "\n".join([f"**Roman Martyrology — {long_date(day)}**", "", *numbered, "", CLOSING])
