"""Corpus, part one: the Second Vatican Council's constitutions and the Catechism."""

from __future__ import annotations

from typing import NamedTuple

_VAT2 = "https://www.vatican.va/archive/hist_councils/ii_vatican_council/documents/"


class Document(NamedTuple):
    id: str
    title: str
    author: str
    ref: str
    url: str
    keywords: tuple[str, ...]
    body: str


COUNCIL = (
    Document(
        "12345",
        "Lumen Gentium",
        "Second Vatican Council",
        "Dogmatic Constitution on the Church, 21 November 1964",
        _VAT2 + "vat-ii_const_19641121_lumen-gentium_en.html",
        (
            "church",
            "people of god",
            "bishops",
            "collegiality",
            "laity",
            "holiness",
            "pope",
            "hierarchy",
            "mary",
            "sacrament",
            "salvation",
        ),
        "Lumen Gentium presents Christ as the light of the nations and the Church as a kind of "
        "sacrament: a sign and instrument of communion with God and of the unity of the whole "
        "human race.\n\nIt describes the Church as the People of God, sets out the hierarchical "
        "constitution of the Church and the collegiality of the bishops with and under the "
        "Roman Pontiff, and explains the vocation of the laity in the world.\n\nIts fifth "
        "chapter teaches the universal call to holiness, addressed to every Christian in every "
        "state of life; its last chapter places the Blessed Virgin Mary within the mystery of "
        "Christ and the Church.",
    ),
    Document(
        "12346",
        "Dei Verbum",
        "Second Vatican Council",
        "Dogmatic Constitution on Divine Revelation, 18 November 1965",
        _VAT2 + "vat-ii_const_19651118_dei-verbum_en.html",
        (
            "revelation",
            "scripture",
            "bible",
            "tradition",
            "inspiration",
            "magisterium",
            "word of god",
            "gospels",
        ),
        "Dei Verbum teaches that God, out of love, reveals himself and his saving plan, and that "
        "this revelation reaches its fullness in Jesus Christ.\n\nSacred Tradition and Sacred "
        "Scripture form a single deposit of the word of God entrusted to the Church; the "
        "Magisterium is not above that word but serves it, teaching only what has been handed "
        "on.\n\nThe constitution affirms that Scripture is inspired and teaches without error "
        "the truth God willed to be recorded for our salvation, and it urges all the faithful "
        "to read the Bible often.",
    ),
    Document(
        "12347",
        "Sacrosanctum Concilium",
        "Second Vatican Council",
        "Constitution on the Sacred Liturgy, 4 December 1963",
        _VAT2 + "vat-ii_const_19631204_sacrosanctum-concilium_en.html",
        (
            "liturgy",
            "liturgical",
            "mass",
            "eucharist",
            "worship",
            "participation",
            "sacraments",
            "music",
            "latin",
            "vernacular",
        ),
        "Sacrosanctum Concilium calls the liturgy the summit toward which the Church's activity "
        "is directed and the source from which all her strength flows.\n\nIt asks for the full, "
        "conscious and active participation of the faithful, orders a revision of the rites, "
        "permits a wider use of the vernacular while keeping Latin, and gives Gregorian chant "
        "pride of place in sacred music.",
    ),
    Document(
        "12348",
        "Gaudium et Spes",
        "Second Vatican Council",
        "Pastoral Constitution on the Church in the Modern World, 7 December 1965",
        _VAT2 + "vat-ii_const_19651207_gaudium-et-spes_en.html",
        (
            "modern world",
            "dignity",
            "conscience",
            "marriage",
            "family",
            "culture",
            "economy",
            "peace",
            "war",
            "society",
            "atheism",
        ),
        "Gaudium et Spes opens by declaring that the joys and hopes, the griefs and anxieties of "
        "the people of this age are those of Christ's followers too.\n\nIt reflects on the "
        "dignity of the human person and of conscience, and teaches that Christ fully reveals "
        "man to himself.\n\nIts second part addresses marriage and the family, culture, "
        "economic and social life, the political community, and the fostering of peace and the "
        "avoidance of war.",
    ),
    Document(
        "12349",
        "Catechism of the Catholic Church",
        "Pope John Paul II",
        "Promulgated by the Apostolic Constitution Fidei Depositum, 11 October 1992",
        "https://www.vatican.va/archive/ENG0015/_INDEX.HTM",
        (
            "catechism",
            "creed",
            "doctrine",
            "sacraments",
            "commandments",
            "prayer",
            "faith",
            "teaching",
            "ccc",
        ),
        "The Catechism of the Catholic Church is a sure norm for teaching the faith, presenting "
        "Catholic doctrine in an organic whole.\n\nIts four parts follow the profession of faith "
        "(the Creed), the celebration of the Christian mystery (the sacraments), life in Christ "
        "(the commandments and the moral life) and Christian prayer (the Our Father).",
    ),
)
