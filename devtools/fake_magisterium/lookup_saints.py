"""saint_lookup data: saints, one Blessed, one Venerable, one Servant of God, Korean martyrs.

Records are shaped as in lookup_popes. Saint Thérèse carries the one very long biography.
"""

from __future__ import annotations

import re
import unicodedata

from devtools.fake_magisterium.lookup_popes import (
    BENEDICT_XVI,
    FRANCIS,
    JOHN_PAUL_II,
    LEO_XIII,
    PAUL_VI,
    PIUS_IX,
    PIUS_XI,
    PIUS_XII,
)
from devtools.fake_magisterium.rpc import JsonDict

GREGORY_XV = {"name": "Pope Gregory XV"}  # not in pope_lookup: a link without an id
KOREAN_MARTYRS = "Korean Martyrs"
_WIKIMEDIA = "https://upload.wikimedia.org/wikipedia/commons"

THERESE_BIOGRAPHY = """\
**Saint Thérèse of Lisieux** (Thérèse of the Child Jesus and of the Holy Face, 1873–1897) \
was a Discalced Carmelite nun whose "little way" of trust and love made her one of the most \
beloved saints of modern times and a Doctor of the Church.

**Childhood.** Marie-Françoise-Thérèse Martin was born at Alençon in Normandy on 2 January \
1873, the youngest of the nine children of Louis Martin, a watchmaker, and Zélie Guérin, a \
maker of Alençon lace; five daughters survived infancy, and all five became nuns. Her parents \
were canonized together by Pope Francis in 2015, the first married couple to be canonized \
together. Zélie died of breast cancer in August 1877, when Thérèse was four, and Louis moved \
the family to Les Buissonnets, a house in Lisieux, to be near his wife's brother. The \
lively, affectionate child became withdrawn and oversensitive. When her second mother, her \
sister Pauline, entered the Carmel of Lisieux in 1882, Thérèse fell gravely ill; on \
13 May 1883 she was healed, she said, when a statue of the Virgin in her room smiled at her.

**Conversion and vocation.** She made her First Communion on 8 May 1884, which she remembered \
as "a kiss of love". Her "complete conversion" came on Christmas night 1886: returning from \
Midnight Mass, she overheard her father's tired remark about her Christmas shoes, and instead \
of dissolving in tears, as she would have done before, she found the strength to master \
herself. "Charity entered my heart," she wrote, "with the need to forget myself." In 1887 she \
prayed and offered sacrifices for Henri Pranzini, a murderer condemned to death who refused \
the sacraments; when the newspaper reported that he had kissed the crucifix on the scaffold, \
she called him her "first child". Already set on entering Carmel, she was refused because of \
her age. On a diocesan pilgrimage to Rome in November 1887 she knelt before Pope Leo XIII and \
begged him to let her enter at fifteen; he answered, "You will enter if it is God's will." \
The Bishop of Bayeux gave his permission at the end of the year.

**In Carmel.** Thérèse entered the Carmel of Lisieux on 9 April 1888, aged fifteen, joining \
her sisters Pauline (Mother Agnes of Jesus) and Marie; Céline followed in 1894. She received \
the habit on 10 January 1889 and made her profession on 8 September 1890. These were years of \
dryness in prayer and of suffering: her father, after a series of strokes and a mental \
breakdown, was confined for three years in an asylum at Caen, a humiliation she bore as a \
share in the hidden face of Christ, whose name she added to her own. In the community she \
practised an unnoticed charity, choosing the sisters she found most difficult, accepting \
blame without excusing herself, and doing ordinary tasks with great love. From 1893 she \
helped to form the novices.

**The little way.** Conscious of her littleness, Thérèse looked for "a little way, very \
straight, very short, a totally new little way" to holiness. She found it in Scripture: \
"Whoever is a little one, let him come to me" (Proverbs 9:4). Since she could not climb the \
rough stairway of perfection, Jesus himself would be the lift that carried her up; she had \
only to remain little, trusting him as a child trusts its father. On Trinity Sunday, \
9 June 1895, she offered herself as a victim to God's merciful love. In September 1896, \
searching for her place in the Church, she read Saint Paul on the body and its members and \
on the more excellent way of charity, and cried: "In the heart of the Church, my Mother, I \
shall be love." She prayed and wrote for two missionary priests, Maurice Bellière and Adolphe \
Roulland, entrusted to her as spiritual brothers, and longed to go herself to the Carmel of \
Hanoi.

**Illness and death.** In the night between Holy Thursday and Good Friday 1896 she coughed \
up blood, the first sign of the tuberculosis that would kill her. At Easter she entered a \
"night of faith" in which heaven seemed closed to her, a trial that lasted until her death; \
she kept choosing to believe, and offered it for those who do not believe. Moved to the \
infirmary in July 1897, she suffered greatly and remained cheerful. Her sisters noted her \
words: "I feel that my mission is about to begin, my mission of making God loved as I love \
him... I want to spend my heaven doing good on earth." She died on 30 September 1897, at the \
age of twenty-four, looking at the crucifix and saying, "My God, I love you."

**Story of a Soul.** At the request of Mother Agnes, and later of the prioress Mother Marie \
de Gonzague, Thérèse had written three manuscripts of memories and reflections. Edited by \
Mother Agnes and published in 1898 as *Story of a Soul*, the book spread rapidly through the \
world in dozens of languages, and with it accounts of graces and healings: the "shower of \
roses" she had promised. The Lisieux Carmel received hundreds of letters a day.

**Recognition.** Pope Pius XI, who called her the star of his pontificate, beatified her on \
29 April 1923 and canonized her on 17 May 1925, barely twenty-eight years after her death. \
In 1927 he named her, with Saint Francis Xavier, principal patron of the missions, though \
she had never left her enclosure; in 1944 Pope Pius XII named her secondary patroness of \
France with Saint Joan of Arc. On World Mission Sunday, 19 October 1997, the centenary of her \
death, Pope John Paul II proclaimed her a Doctor of the Church, the third woman and the \
youngest person to receive the title, for the "science of divine love" taught by her life \
and writings. Her feast is kept on 1 October. The basilica built in her honour at Lisieux is \
one of the great pilgrimage churches of France, and her relics have travelled to every \
continent.

**Legacy.** Thérèse's teaching is simple without being sentimental: holiness is not for a \
few heroes but for everyone; it is made of small acts done with great love; confidence in \
God's mercy counts for more than merit; and suffering, joined to Christ's, becomes fruitful \
for others. Her influence can be traced in Saint Teresa of Calcutta, who took her name, in \
countless religious and lay people, and in the teaching of the Second Vatican Council on the \
universal call to holiness."""


def _portrait(path: str) -> str:
    return f"{_WIKIMEDIA}/{path}"


SAINTS: list[JsonDict] = [
    {
        "id": "saint-therese-of-lisieux",
        "name": "Saint Thérèse of Lisieux",
        "aliases": [
            "Thérèse of the Child Jesus",
            "Thérèse of the Child Jesus and of the Holy Face",
            "Teresa of Lisieux",
            "The Little Flower",
            "Marie-Françoise-Thérèse Martin",
        ],
        "summary": "Saint · Carmelite nun and Doctor of the Church (1873–1897)",
        "shape": [],
        "text": THERESE_BIOGRAPHY,
        "profile": {
            "status": "Saint",
            "feast_day": "October 1",
            "born": {"date": "1873-01-02", "place": "Alençon, France"},
            "died": {"date": "1897-09-30", "place": "Lisieux, France"},
            "religious_order": "Discalced Carmelites",
            "beatification": {"date": "1923-04-29", "pope": PIUS_XI},
            "canonization": {"date": "1925-05-17", "pope": PIUS_XI},
            "doctor_of_the_church": {"date": "1997-10-19", "pope": JOHN_PAUL_II},
            "patronage": [
                "missions",
                "florists",
                "gardeners",
                "France",
                "aviators",
                "the sick",
                "loss of parents",
            ],
            "writings": ["Story of a Soul", "Letters", "Poems", "Last Conversations"],
            "image_url": _portrait("4/4b/Therese_de_Lisieux_1896.jpg"),
        },
    },
    {
        "id": "saint-teresa-of-avila",
        "name": "Saint Teresa of Ávila",
        "aliases": ["Teresa of Jesus", "Thérèse d'Avila", "Teresa de Cepeda y Ahumada"],
        "summary": "Saint · Carmelite reformer, mystic and Doctor of the Church (1515–1582)",
        "shape": ["nest:saint"],
        "text": (
            "**Saint Teresa of Ávila** (Teresa of Jesus, 1515–1582) entered the Carmelite "
            "convent of the Incarnation at Ávila in 1535. After years of lukewarm prayer, a "
            "conversion before an image of the wounded Christ in 1554 opened a life of deep "
            "mystical prayer.\n\n"
            "From 1562, when she founded the small convent of Saint Joseph in Ávila, she "
            "restored the primitive Carmelite rule, founding seventeen convents of the "
            "Discalced Carmelites and, with Saint John of the Cross, beginning the reform "
            "among the friars. Her *Life*, *The Way of Perfection* and *The Interior Castle* "
            "are classics of the spiritual life. She died at Alba de Tormes in October 1582 "
            "and was canonized in 1622. In 1970 Pope Paul VI made her, with Catherine of "
            "Siena, one of the first two women Doctors of the Church."
        ),
        "profile": {
            "status": "Saint",
            "feast_day": "10-15",
            "born": "1515-03-28",
            "died": "1582-10-04",
            "religious_order": "Discalced Carmelites (foundress)",
            "beatification": {"date": "1614-04-24"},
            "canonization": {"date": "1622-03-12", "pope": GREGORY_XV},
            "doctor_of_the_church": {"date": "1970-09-27", "pope": PAUL_VI},
            "patronage": ["Spain", "people in religious orders", "headache sufferers"],
            "image_url": _portrait("9/9f/Teresa_of_Avila_Rubens.jpg"),
        },
    },
    {
        "id": "saint-teresa-of-calcutta",
        "name": "Saint Teresa of Calcutta",
        "aliases": ["Mother Teresa", "Teresa of Kolkata", "Anjezë Gonxhe Bojaxhiu"],
        "summary": "Saint · foundress of the Missionaries of Charity (1910–1997)",
        "shape": ["camel"],
        "text": (
            "**Saint Teresa of Calcutta** (Anjezë Gonxhe Bojaxhiu, 1910–1997), born to an "
            "Albanian family in Skopje, joined the Sisters of Loreto in 1928, taking her name "
            "from Thérèse of Lisieux, and taught for years in Calcutta.\n\n"
            'On 10 September 1946 she received what she called a "call within a call" to '
            "serve the poorest of the poor. In 1950 she founded the Missionaries of Charity, "
            "whose homes for the dying, lepers, orphans and the destitute spread across the "
            "world. She received the Nobel Peace Prize in 1979. Her letters later revealed "
            "decades of interior darkness borne in faith. She was beatified by John Paul II in "
            "2003 and canonized by Pope Francis on 4 September 2016."
        ),
        "profile": {
            "status": "Saint",
            "feast_day": "September 5",
            "born": "1910-08-26",
            "died": "1997-09-05",
            "religious_order": "Missionaries of Charity (foundress)",
            "beatification": {"date": "2003-10-19", "pope": JOHN_PAUL_II},
            "canonization": {"date": "2016-09-04", "pope": FRANCIS},
            "patronage": ["Missionaries of Charity", "Archdiocese of Calcutta (co-patroness)"],
            "image_url": _portrait("d/d6/Mother_Teresa_1985.jpg"),
        },
    },
    {
        "id": "saint-teresa-benedicta-of-the-cross",
        "name": "Saint Teresa Benedicta of the Cross",
        "aliases": ["Edith Stein", "Thérèse-Bénédicte de la Croix"],
        "summary": "Saint · Carmelite, philosopher and martyr of Auschwitz (1891–1942)",
        "shape": ["nest:result"],
        "text": (
            "**Saint Teresa Benedicta of the Cross** (Edith Stein, 1891–1942) was born into a "
            "Jewish family in Breslau, became a brilliant phenomenologist and assistant to "
            "Edmund Husserl, and, after reading the *Life* of Teresa of Ávila, was baptized "
            "in 1922. She taught and lectured until the Nazi laws excluded her, and in 1933 "
            "entered the Carmel of Cologne.\n\n"
            "Moved to the Carmel of Echt in the Netherlands for safety, she was arrested with "
            "her sister Rosa in August 1942, after the Dutch bishops protested against the "
            "deportation of the Jews, and was killed at Auschwitz on 9 August 1942. John Paul "
            "II canonized her in 1998 and named her a co-patroness of Europe in 1999."
        ),
        "profile": {
            "status": "Saint",
            "feast_day": "August 9",
            "born": "1891-10-12",
            "died": "1942-08-09",
            "religious_order": "Discalced Carmelites",
            "beatification": {"date": "1987-05-01", "pope": JOHN_PAUL_II},
            "canonization": {"date": "1998-10-11", "pope": JOHN_PAUL_II},
            "patronage": ["Europe"],
            "martyr": True,
        },
    },
    {
        "id": "saint-therese-couderc",
        "name": "Saint Thérèse Couderc",
        "aliases": ["Marie-Victoire Couderc"],
        "summary": "Saint · foundress of the Sisters of the Cenacle (1805–1885)",
        "shape": [],
        "text": (
            "**Saint Thérèse Couderc** (1805–1885) co-founded at La Louvesc, in France, the "
            "Congregation of Our Lady of the Retreat in the Cenacle, devoted to giving "
            "retreats to women. Removed as superior, she lived for decades in humble "
            "obscurity, and is remembered for her short text on self-surrender. Pope Paul VI "
            "canonized her in 1970."
        ),
        "profile": {
            "status": "Saint",
            "feast_day": "September 26",
            "born": "1805",
            "died": "1885-09-26",
            "canonization": {"date": "1970-05-10", "pope": PAUL_VI},
        },
    },
    {
        "id": "saint-francis-of-assisi",
        "name": "Saint Francis of Assisi",
        "aliases": ["Francis of Assisi", "Francesco d'Assisi", "Il Poverello"],
        "summary": "Saint · founder of the Friars Minor (c. 1181–1226)",
        "shape": ["camel"],
        "text": (
            "**Saint Francis of Assisi** (Giovanni di Pietro di Bernardone, c. 1181–1226), the "
            "son of a rich cloth merchant, renounced his inheritance before the Bishop of "
            'Assisi to follow Christ in poverty. Hearing the call to "rebuild my church" at '
            "San Damiano, he first repaired chapels, then gathered brothers who lived the "
            "Gospel literally; Pope Innocent III approved their way of life around 1209.\n\n"
            "With Saint Clare he founded the Poor Clares. He preached to the Sultan al-Kamil "
            "at Damietta in 1219, made the first Christmas crib at Greccio in 1223 and "
            "received the stigmata on La Verna in 1224. Near death he composed the *Canticle "
            "of the Creatures*. He died, a deacon, at the Portiuncula on 3 October 1226, and "
            "was canonized two years later."
        ),
        "profile": {
            "status": "Saint",
            "feast_day": "October 4",
            "born": "c. 1181",
            "died": "1226-10-03",
            "religious_order": "Order of Friars Minor (founder)",
            "canonization": {"date": "1228-07-16", "pope": {"name": "Pope Gregory IX"}},
            "patronage": ["Italy", "animals", "ecology", "merchants"],
            "declared_patron_of_ecology": {"date": "1979-11-29", "pope": JOHN_PAUL_II},
            "image_url": _portrait("5/5c/Francis_of_Assisi_Cimabue.jpg"),
        },
    },
    {
        "id": "saint-francis-xavier",
        "name": "Saint Francis Xavier",
        "aliases": ["Francisco de Jasso y Azpilicueta", "Apostle of the Indies"],
        "summary": "Saint · Jesuit missionary to India and Japan (1506–1552)",
        "shape": [],
        "text": (
            "**Saint Francis Xavier** (1506–1552), a Navarrese nobleman, met Ignatius of "
            "Loyola at the University of Paris and was one of the first companions who vowed "
            "themselves to God at Montmartre in 1534.\n\n"
            "Sent to the East in 1541, he preached in Goa, along the Fishery Coast, in the "
            "Moluccas and, from 1549, in Japan, baptizing many thousands. He died on the island "
            "of Shangchuan, within sight of the China he hoped to enter, on 3 December 1552. "
            "Canonized with Ignatius in 1622, he was named patron of the missions in 1927."
        ),
        "profile": {
            "status": "Saint",
            "feast_day": "December 3",
            "born": "1506-04-07",
            "died": "1552-12-03",
            "religious_order": "Society of Jesus",
            "beatification": {"date": "1619-10-25"},
            "canonization": {"date": "1622-03-12", "pope": GREGORY_XV},
            "patronage": ["missions", "Navarre", "missionaries"],
            "image_url": "javascript:alert(1)",
        },
    },
    {
        "id": "saint-francis-de-sales",
        "name": "Saint Francis de Sales",
        "aliases": ["François de Sales", "Gentleman Saint"],
        "summary": "Saint · Bishop of Geneva and Doctor of the Church (1567–1622)",
        "shape": ["nest:saint", "camel"],
        "text": (
            "**Saint Francis de Sales** (1567–1622), a Savoyard nobleman trained in law, "
            "became a priest and won back the Chablais region to the Catholic faith by "
            "patient preaching and leaflets slipped under doors. As Bishop of Geneva, "
            "resident at Annecy, he was a tireless pastor and spiritual director.\n\n"
            "His *Introduction to the Devout Life* (1609) taught that holiness is possible in "
            "every state of life, and his *Treatise on the Love of God* is a masterpiece. With "
            "Saint Jane Frances de Chantal he founded the Visitation of Holy Mary. He was "
            "declared a Doctor of the Church by Pius IX in 1877 and patron of writers and "
            "journalists by Pius XI in 1923."
        ),
        "profile": {
            "status": "Saint",
            "feast_day": "January 24",
            "born": "1567-08-21",
            "died": "1622-12-28",
            "canonization": {"date": "1665-04-19", "pope": {"name": "Pope Alexander VII"}},
            "doctor_of_the_church": {"date": "1877", "pope": PIUS_IX},
            "patronage": ["writers", "journalists", "the deaf", "Catholic press"],
            "declared_patron_of_writers": {"date": "1923-01-26", "pope": PIUS_XI},
        },
    },
    {
        "id": "saint-thomas-aquinas",
        "name": "Saint Thomas Aquinas",
        "aliases": ["Thomas of Aquino", "Angelic Doctor", "Doctor Angelicus"],
        "summary": "Saint · Dominican theologian, the Angelic Doctor (c. 1225–1274)",
        "shape": [],
        "text": (
            "**Saint Thomas Aquinas** (c. 1225–1274), born at Roccasecca to a noble family, "
            "joined the Order of Preachers against his family's will and studied under Albert "
            "the Great. He taught at Paris, Naples and in the papal curia.\n\n"
            "His *Summa theologiae* and *Summa contra Gentiles* unite faith and reason in a "
            "synthesis the Church has commended ever since; he also wrote the hymns for "
            "Corpus Christi, among them *Pange lingua* and *Adoro te devote*. He died at the "
            "abbey of Fossanova on his way to the Council of Lyon. Pope Leo XIII, in "
            "*Aeterni Patris*, set him before Catholic schools as their guide and declared "
            "him their patron."
        ),
        "profile": {
            "status": "Saint",
            "feast_day": "January 28",
            "born": "c. 1225",
            "died": "1274-03-07",
            "religious_order": "Order of Preachers",
            "canonization": {"date": "1323-07-18", "pope": {"name": "Pope John XXII"}},
            "doctor_of_the_church": {"date": "1567", "pope": {"name": "Pope Pius V"}},
            "patronage": ["Catholic schools", "universities", "students", "theologians"],
            "declared_patron_of_schools": {"date": "1880-08-04", "pope": LEO_XIII},
            "image_url": _portrait("e/e3/St-thomas-aquinas.jpg"),
        },
    },
    {
        "id": "saint-andrew-apostle",
        "name": "Saint Andrew the Apostle",
        "aliases": ["Andrew", "Andrew the Apostle", "Protokletos"],
        "summary": "Saint · apostle, brother of Simon Peter (died c. 60)",
        "shape": [],
        "text": (
            "**Saint Andrew**, a fisherman of Bethsaida and the brother of Simon Peter, was a "
            "disciple of John the Baptist before following Jesus; the Gospel of John calls him "
            "the first called, and he brought his brother to the Lord (John 1:40-42).\n\n"
            "Tradition says he preached around the Black Sea and in Greece and was crucified "
            "at Patras in Achaia. He is the patron of the Ecumenical Patriarchate of "
            "Constantinople, as Peter is of Rome, and of Scotland."
        ),
        "profile": {
            "status": "Saint",
            "feast_day": "November 30",
            "born": "Bethsaida, Galilee",
            "died": "c. 60, Patras, Achaia",
            "canonization": "Pre-Congregation",
            "patronage": ["Scotland", "Greece", "Russia", "fishermen", "Patras"],
            "image_url": _portrait("1/1c/Saint_Andrew_Artus_Wolffort.jpg"),
        },
    },
    {
        "id": "saint-patrick",
        "name": "Saint Patrick",
        "aliases": ["Patrick of Ireland", "Apostle of Ireland", "Patricius"],
        "summary": "Saint · bishop, apostle of Ireland (5th century)",
        "shape": ["nest:result"],
        "text": (
            "**Saint Patrick** (5th century), a Romano-British Christian, was captured by "
            "raiders at sixteen and kept as a slave in Ireland for six years, where he learned "
            "to pray. Escaping home, he later returned as a bishop to preach the Gospel to the "
            "Irish. His *Confession* and *Letter to Coroticus* are the earliest documents of "
            "Irish church history."
        ),
        "profile": {
            "status": "Saint",
            "feast_day": "March 17",
            "died": "c. 461",
            "canonization": "Pre-Congregation",
            "patronage": ["Ireland", "Nigeria", "engineers"],
        },
    },
    {
        "id": "saint-joseph",
        "name": "Saint Joseph",
        "aliases": [
            "Joseph",
            "Joseph of Nazareth",
            "Saint Joseph the Worker",
            "Joseph, Spouse of the Blessed Virgin Mary",
        ],
        "summary": "Saint · spouse of the Virgin Mary, patron of the Universal Church",
        "shape": [],
        "text": (
            "**Saint Joseph**, of the house of David, was the husband of the Virgin Mary and "
            "the foster father of Jesus. The Gospels call him a just man; obedient to God's "
            "word in dreams, he took Mary into his home, protected the Child on the flight "
            "into Egypt and raised him at Nazareth as a carpenter.\n\n"
            "Pope Pius IX declared him patron of the Universal Church in 1870; Pius XII "
            "instituted the feast of Saint Joseph the Worker on 1 May 1955; and Pope Francis "
            "proclaimed a Year of Saint Joseph with the apostolic letter *Patris corde* in "
            "2020."
        ),
        "profile": {
            "status": "Saint",
            "feast_day": ["March 19", "May 1 (Joseph the Worker)"],
            "canonization": "Pre-Congregation",
            "patronage": ["the Universal Church", "fathers", "workers", "a happy death"],
            "declarations": [
                {"title": "Patron of the Universal Church", "date": "1870-12-08", "pope": PIUS_IX},
                {
                    "title": "Feast of Saint Joseph the Worker",
                    "date": "1955-05-01",
                    "pope": PIUS_XII,
                },
                {
                    "title": "Year of Saint Joseph (Patris corde)",
                    "date": "2020-12-08",
                    "pope": FRANCIS,
                },
            ],
            "image_url": _portrait("8/8b/Saint_Joseph_Guido_Reni.jpg"),
        },
    },
    {
        "id": "saint-ignatius-of-loyola",
        "name": "Saint Ignatius of Loyola",
        "aliases": ["Íñigo López de Loyola", "Ignatius Loyola"],
        "summary": "Saint · founder of the Society of Jesus (1491–1556)",
        "shape": ["camel"],
        "text": (
            "**Saint Ignatius of Loyola** (1491–1556), a Basque soldier wounded at Pamplona "
            "in 1521, was converted while convalescing by reading the lives of Christ and the "
            "saints. At Manresa he wrote the core of the *Spiritual Exercises*.\n\n"
            "With companions he met at Paris, among them Francis Xavier, he founded the "
            "Society of Jesus, approved by Pope Paul III in 1540, and governed it from Rome "
            "until his death. He was canonized in 1622, and Pius XI named him patron of "
            "spiritual exercises and retreats in 1922."
        ),
        "profile": {
            "status": "Saint",
            "feast_day": "July 31",
            "born": "1491",
            "died": "1556-07-31",
            "religious_order": "Society of Jesus (founder)",
            "beatification": {"date": "1609-07-27"},
            "canonization": {"date": "1622-03-12", "pope": GREGORY_XV},
            "patronage": ["spiritual retreats", "soldiers", "the Basque Country"],
            "image_url": _portrait("2/2d/Ignatius_of_Loyola_Rubens.jpg"),
        },
    },
    {
        "id": "saint-augustine-of-hippo",
        "name": "Saint Augustine of Hippo",
        "aliases": ["Augustine", "Aurelius Augustinus", "Doctor of Grace"],
        "summary": "Saint · bishop of Hippo and Doctor of the Church (354–430)",
        "shape": ["nest:saint"],
        "text": (
            "**Saint Augustine of Hippo** (354–430), born at Thagaste in North Africa to Saint "
            "Monica, was a brilliant teacher of rhetoric whose restless search passed through "
            "Manichaeism and scepticism. At Milan, moved by the preaching of Ambrose and by "
            'the words "take up and read", he was converted, and Ambrose baptized him at the '
            "Easter Vigil of 387.\n\n"
            "Bishop of Hippo for 35 years, he wrote the *Confessions*, *The City of God* and "
            "*On the Trinity*, and defended the Church against the Donatists and Pelagians. "
            "He died while the Vandals besieged his city."
        ),
        "profile": {
            "status": "Saint",
            "feast_day": "August 28",
            "born": "354-11-13",
            "died": "430-08-28",
            "canonization": "Pre-Congregation",
            "baptized_by": {"id": "saint-ambrose", "name": "Saint Ambrose"},
            "patronage": ["theologians", "printers", "brewers"],
            "image_url": _portrait("7/79/Augustine_of_Hippo_Champaigne.jpg"),
        },
    },
    {
        "id": "saint-ambrose",
        "name": "Saint Ambrose",
        "aliases": ["Ambrose of Milan", "Aurelius Ambrosius"],
        "summary": "Saint · bishop of Milan and Doctor of the Church (c. 339–397)",
        "shape": [],
        "text": (
            "**Saint Ambrose** (c. 339–397), born at Trier, was the Roman governor at Milan "
            "when, in 374, the people acclaimed him bishop while he was still a catechumen; he "
            "was baptized and ordained within a week. A great preacher, hymn writer and "
            "defender of the Church's freedom, he made the emperor Theodosius do public penance "
            "and baptized Augustine in 387. His feast falls on 7 December, the anniversary "
            "of his ordination as bishop."
        ),
        "profile": {
            "status": "Saint",
            "feast_day": "December 7",
            "born": "c. 339",
            "died": "397-04-04",
            "canonization": "Pre-Congregation",
            "patronage": ["Milan", "beekeepers", "learners"],
        },
    },
    {
        "id": "saint-john-xxiii",
        "name": "Saint John XXIII",
        "aliases": ["Pope Saint John XXIII", "Angelo Giuseppe Roncalli"],
        "summary": "Saint · pope 1958–1963 who convoked the Second Vatican Council",
        "shape": [],
        "text": (
            "**Saint John XXIII** (Angelo Giuseppe Roncalli, 1881–1963), pope from 1958, "
            "convoked the Second Vatican Council. His memorial is kept on 11 October, the day "
            "the Council opened in 1962."
        ),
        "profile": {
            "status": "Saint",
            "feast_day": "October 11",
            "born": "1881-11-25",
            "died": "1963-06-03",
            "pope": {"id": "pope-john-xxiii", "name": "Pope John XXIII"},
            "canonization": {"date": "2014-04-27", "pope": FRANCIS},
        },
    },
    {
        "id": "saint-john-paul-ii",
        "name": "Saint John Paul II",
        "aliases": ["Pope Saint John Paul II", "Karol Wojtyła"],
        "summary": "Saint · pope 1978–2005",
        "shape": ["camel"],
        "text": (
            "**Saint John Paul II** (Karol Wojtyła, 1920–2005), Archbishop of Kraków and pope "
            "from 1978, was canonized on Divine Mercy Sunday, 27 April 2014. His memorial is "
            "kept on 22 October, the anniversary of the inauguration of his pontificate."
        ),
        "profile": {
            "status": "Saint",
            "feast_day": "October 22",
            "born": "1920-05-18",
            "died": "2005-04-02",
            "pope": {"id": "pope-john-paul-ii", "name": "Pope John Paul II"},
            "beatification": {"date": "2011-05-01", "pope": BENEDICT_XVI},
            "canonization": {"date": "2014-04-27", "pope": FRANCIS},
            "patronage": ["World Youth Day", "families"],
        },
    },
    {
        "id": "blessed-chiara-badano",
        "name": "Blessed Chiara Badano",
        "aliases": ["Chiara Luce Badano", "Chiara Luce"],
        "summary": "Blessed · young member of the Focolare Movement (1971–1990)",
        "shape": ["nest:result"],
        "text": (
            '**Blessed Chiara "Luce" Badano** (1971–1990) grew up at Sassello in Liguria and '
            "joined the Focolare Movement as a girl. At seventeen she was diagnosed with bone "
            "cancer; she refused morphine so as to stay lucid, and offered her suffering with "
            'the words "If you want it, Jesus, I want it too." She died on 7 October 1990, '
            "aged eighteen, and was beatified in Rome on 25 September 2010."
        ),
        "profile": {
            "status": "Blessed",
            "feast_day": "October 29",
            "born": "1971-10-29",
            "died": "1990-10-07",
            "beatification": {"date": "2010-09-25", "pope": BENEDICT_XVI},
            "movement": "Focolare Movement",
            "patronage": ["young people"],
            "image_url": _portrait("b/b5/Chiara_Badano.jpg"),
        },
    },
    {
        "id": "venerable-fulton-sheen",
        "name": "Venerable Fulton J. Sheen",
        "aliases": ["Fulton Sheen", "Archbishop Fulton Sheen", "Peter John Sheen"],
        "summary": "Venerable · archbishop, broadcaster of Life Is Worth Living (1895–1979)",
        "shape": [],
        "text": (
            "**Venerable Fulton J. Sheen** (1895–1979), a priest of Peoria and professor at "
            "the Catholic University of America, reached millions through the radio programme "
            "*The Catholic Hour* and the television series *Life Is Worth Living*. He was "
            "national director of the Society for the Propagation of the Faith, auxiliary "
            "bishop of New York and Bishop of Rochester.\n\n"
            "Pope Benedict XVI declared him Venerable in 2012. A miracle was approved in 2019, "
            "but the beatification planned for December of that year was postponed; in 2026 "
            "the Holy See allowed the cause to proceed, and no date has yet been set."
        ),
        "profile": {
            "status": "Venerable",
            "born": "1895-05-08",
            "died": "1979-12-09",
            "venerable": {"date": "2012-06-28", "pope": BENEDICT_XVI},
            "cause": {"opened": "2002", "diocese": "Diocese of Peoria"},
            "image_url": _portrait("3/3d/Fulton_J_Sheen_1952.jpg"),
        },
    },
    {
        "id": "servant-of-god-dorothy-day",
        "name": "Servant of God Dorothy Day",
        "aliases": ["Dorothy Day"],
        "summary": "Servant of God · co-founder of the Catholic Worker Movement (1897–1980)",
        "shape": [],
        "text": (
            "**Servant of God Dorothy Day** (1897–1980), a journalist and activist, became a "
            "Catholic in 1927. With Peter Maurin she founded *The Catholic Worker* newspaper "
            "in 1933 and houses of hospitality for the poor, living in voluntary poverty and "
            "working for peace. Her cause for canonization was opened by the Archdiocese of "
            "New York in 2000."
        ),
        "profile": {
            "status": "Servant of God",
            "born": "1897-11-08",
            "died": "1980-11-29",
            "cause": {"opened": "2000", "diocese": "Archdiocese of New York"},
        },
    },
]

# --- the Korean martyrs: 103 canonized together in Seoul on 6 May 1984 -----------------------

BEATIFIED_1925 = {"date": "1925-07-05", "pope": PIUS_XI}
BEATIFIED_1968 = {"date": "1968-10-06", "pope": PAUL_VI}
CANONIZED_1984 = {"date": "1984-05-06", "pope": JOHN_PAUL_II, "place": "Seoul"}

SAINTS += [
    {
        "id": "saint-andrew-kim-tae-gon",
        "name": "Saint Andrew Kim Tae-gon",
        "aliases": ["Andrew Kim Taegon", "Andrew Kim Dae-gun", "Kim Tae-gon", KOREAN_MARTYRS],
        "summary": "Saint · the first Korean-born priest, martyr (1821–1846)",
        "shape": [],
        "text": (
            "**Saint Andrew Kim Tae-gon** (1821–1846), son of the martyr Ignatius Kim "
            "Che-jun, was sent as a boy to study at the seminary of the Paris Foreign Missions "
            "in Macau. Ordained in Shanghai in 1845, the first Korean-born priest, he returned "
            "secretly to Korea, was arrested the next year while arranging the entry of "
            "missionaries by sea, and was beheaded at Saenamteo by the Han River on "
            "16 September 1846, aged 25. He is the principal patron of the Korean clergy."
        ),
        "profile": {
            "status": "Saint",
            "feast_day": "September 20 (with companions); July 5 in Korea",
            "born": "1821-08-21",
            "died": "1846-09-16",
            "state_of_life": "priest",
            "beatification": BEATIFIED_1925,
            "canonization": CANONIZED_1984,
            "patronage": ["Korean clergy", "Korea"],
            "place_of_martyrdom": {
                "name": "Saenamteo, Seoul",
                "diocese": {"id": "diocese-seoul", "name": "Archdiocese of Seoul"},
            },
            "image_url": _portrait("6/66/Andrew_Kim_Taegon.jpg"),
        },
    },
    {
        "id": "saint-paul-chong-ha-sang",
        "name": "Saint Paul Chong Ha-sang",
        "aliases": ["Paul Chong Hasang", "Jeong Ha-sang", KOREAN_MARTYRS],
        "summary": "Saint · lay leader of the Korean Church, martyr (1795–1839)",
        "shape": ["camel"],
        "text": (
            "**Saint Paul Chong Ha-sang** (1795–1839), son of the martyr Augustine Chong "
            "Yak-jong, travelled to Beijing again and again as a servant of the winter "
            "embassy to beg the bishop for priests for Korea, and wrote to the Pope. Arrested "
            "in 1839, he presented to the magistrates a defence of the faith, and was beheaded "
            "outside the Small West Gate of Seoul on 22 September 1839."
        ),
        "profile": {
            "status": "Saint",
            "feast_day": "September 20",
            "born": "1795",
            "died": "1839-09-22",
            "state_of_life": "layman, seminarian",
            "beatification": BEATIFIED_1925,
            "canonization": CANONIZED_1984,
        },
    },
]

# (name, state of life, year of martyrdom, note)
_COMPANIONS: tuple[tuple[str, str, int, str], ...] = (
    ("Laurent Imbert", "bishop", 1839, "Vicar Apostolic of Korea, of the Paris Foreign Missions"),
    ("Pierre Maubant", "priest", 1839, "the first French missionary priest to enter Korea"),
    ("Jacques Chastan", "priest", 1839, "missionary of the Paris Foreign Missions"),
    ("Augustine Yu Jin-gil", "layman", 1839, "interpreter who helped bring priests to Korea"),
    ("Cecilia Yu So-sa", "laywoman", 1839, "mother of Paul Chong Ha-sang, died in prison"),
    ("Elisabeth Chong Chong-hye", "laywoman", 1839, "sister of Paul Chong Ha-sang"),
    ("Peter Yu Tae-chol", "layman", 1839, "a boy of thirteen, the youngest of the martyrs"),
    ("Columba Kim Hyo-im", "laywoman", 1839, "consecrated virgin, sister of Agnes"),
    ("Agnes Kim Hyo-ju", "laywoman", 1839, "consecrated virgin, sister of Columba"),
    ("Protasius Chong Kuk-bo", "layman", 1839, "died in prison after retracting his apostasy"),
    ("Agatha Kim A-gi", "laywoman", 1839, "baptized in prison"),
    ("Anna Pak A-gi", "laywoman", 1839, ""),
    ("Lucy Park Hui-sun", "laywoman", 1839, "former lady of the royal court"),
    ("Teresa Yi Mae-im", "laywoman", 1839, ""),
    ("Ignatius Kim Che-jun", "layman", 1839, "father of Andrew Kim Tae-gon"),
    ("Francis Choe Kyong-hwan", "layman", 1839, "catechist, died in prison"),
    ("Charles Hyon Song-mun", "layman", 1846, "catechist and companion of Andrew Kim Tae-gon"),
    ("Teresa Kim Im-i", "laywoman", 1846, "consecrated virgin"),
    ("Lawrence Han I-hyong", "layman", 1846, "catechist"),
    ("Susanna U Sur-im", "laywoman", 1846, ""),
    ("Catherine Chong Chol-yom", "laywoman", 1846, "servant of a Catholic household"),
    ("Peter Nam Kyong-mun", "layman", 1846, "military officer"),
    ("Siméon-François Berneux", "bishop", 1866, "Vicar Apostolic of Korea"),
    ("Antoine Daveluy", "bishop", 1866, "historian of the Korean martyrs"),
    ("Just de Bretenières", "priest", 1866, "missionary of the Paris Foreign Missions"),
    ("Louis Beaulieu", "priest", 1866, "missionary of the Paris Foreign Missions"),
    ("Martin-Luc Huin", "priest", 1866, "missionary of the Paris Foreign Missions"),
    ("John Baptist Nam Chong-sam", "layman", 1866, "former official of the royal court"),
)


def _slug(name: str) -> str:
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")


def _companion(name: str, state: str, year: int, note: str) -> JsonDict:
    about = f"{state}; {note}" if note else state
    profile: JsonDict = {
        "status": "Saint",
        "feast_day": "September 20",
        "died": year,
        "state_of_life": state,
        "beatification": BEATIFIED_1968 if year == 1866 else BEATIFIED_1925,
        "canonization": CANONIZED_1984,
        "group": KOREAN_MARTYRS,
    }
    return {
        "id": f"saint-{_slug(name)}",
        "name": f"Saint {name}",
        "aliases": [KOREAN_MARTYRS],
        "summary": f"Saint · Korean martyr ({year}), {state}",
        "shape": ["floats"] if year == 1846 else [],
        "text": (
            f"**Saint {name}** ({about}) died for the faith in the persecution of {year}. "
            "One of the 103 Korean Martyrs canonized by Pope John Paul II in Seoul "
            "on 6 May 1984, commemorated with Saints Andrew Kim Tae-gon, Paul Chong Ha-sang "
            "and companions on 20 September."
        ),
        "profile": profile,
    }


SAINTS += [_companion(*row) for row in _COMPANIONS]
