"""pope_lookup data: the popes from Pius IX to Leo XIV, linked predecessor to successor.

Each record: id, name, aliases, summary (for candidate lists), text (the reply's prose),
profile (the rest of the data part) and shape (how lookups.py varies the data part).
"""

from __future__ import annotations

from devtools.fake_magisterium.rpc import JsonDict


def _pope(pope_id: str, name: str) -> JsonDict:
    return {"id": pope_id, "name": name}


PIUS_IX = _pope("pope-pius-ix", "Pope Pius IX")
LEO_XIII = _pope("pope-leo-xiii", "Pope Leo XIII")
PIUS_X = _pope("pope-pius-x", "Pope Pius X")
BENEDICT_XV = _pope("pope-benedict-xv", "Pope Benedict XV")
PIUS_XI = _pope("pope-pius-xi", "Pope Pius XI")
PIUS_XII = _pope("pope-pius-xii", "Pope Pius XII")
JOHN_XXIII = _pope("pope-john-xxiii", "Pope John XXIII")
PAUL_VI = _pope("pope-paul-vi", "Pope Paul VI")
JOHN_PAUL_I = _pope("pope-john-paul-i", "Pope John Paul I")
JOHN_PAUL_II = _pope("pope-john-paul-ii", "Pope John Paul II")
BENEDICT_XVI = _pope("pope-benedict-xvi", "Pope Benedict XVI")
FRANCIS = _pope("pope-francis", "Pope Francis")
LEO_XIV = _pope("pope-leo-xiv", "Pope Leo XIV")

POPES: list[JsonDict] = [
    {
        "id": "pope-pius-ix",
        "name": "Pope Pius IX",
        "aliases": ["Pio Nono", "Giovanni Maria Mastai-Ferretti", "Blessed Pius IX"],
        "summary": "Pope 1846–1878; defined the Immaculate Conception, convoked Vatican I",
        "shape": [],
        "text": (
            "**Pope Pius IX** (Giovanni Maria Mastai-Ferretti, 1792–1878) reigned for more than "
            "31 years, the longest pontificate in history after Saint Peter's.\n\n"
            "In 1854 he defined the dogma of the Immaculate Conception in *Ineffabilis Deus*; "
            "in 1864 he issued the encyclical *Quanta cura* with the *Syllabus of Errors*; and "
            "in 1869 he opened the First Vatican Council, which defined papal primacy and "
            "infallibility in *Pastor aeternus* (1870). The capture of Rome in September 1870 "
            "ended the Papal States, and he lived thereafter as a self-described prisoner in "
            "the Vatican. He proclaimed Saint Joseph patron of the Universal Church and was "
            "beatified by Pope John Paul II in 2000."
        ),
        "profile": {
            "ordinal": 255,
            "birth_name": "Giovanni Maria Mastai-Ferretti",
            "born": "1792-05-13",
            "birthplace": "Senigallia, Papal States",
            "died": "1878-02-07",
            "pontificate": {"start": "1846-06-16", "end": "1878-02-07"},
            "predecessor": {"name": "Pope Gregory XVI"},
            "successor": LEO_XIII,
            "notable": [
                "Ineffabilis Deus (1854): the Immaculate Conception",
                "Quanta cura and the Syllabus of Errors (1864)",
                "First Vatican Council (1869–1870)",
                "Saint Joseph declared patron of the Universal Church (1870)",
            ],
            "beatification": {"date": "2000-09-03", "pope": JOHN_PAUL_II},
            "image_url": "https://upload.wikimedia.org/wikipedia/commons/6/6b/Pope_Pius_IX.jpg",
        },
    },
    {
        "id": "pope-leo-xiii",
        "name": "Pope Leo XIII",
        "aliases": ["Vincenzo Gioacchino Pecci", "Gioacchino Pecci"],
        "summary": "Pope 1878–1903; Rerum novarum, the revival of Thomism",
        "shape": ["nest:result"],
        "text": (
            "**Pope Leo XIII** (Vincenzo Gioacchino Pecci, 1810–1903) was elected at 67 and "
            "reigned for 25 years. His encyclical *Aeterni Patris* (1879) renewed the study "
            "of Saint Thomas Aquinas, and *Rerum novarum* (1891), on capital and labour, "
            "opened the modern social teaching of the Church. He also wrote *Providentissimus "
            "Deus* (1893) on the study of Scripture and a long series of encyclicals on the Rosary."
        ),
        "profile": {
            "ordinal": 256,
            "birth_name": "Vincenzo Gioacchino Raffaele Luigi Pecci",
            "born": {"date": "1810-03-02", "place": "Carpineto Romano, Papal States"},
            "died": {"date": "1903-07-20", "place": "Apostolic Palace, Vatican"},
            "pontificate": {"start": "1878-02-20", "end": "1903-07-20"},
            "created_cardinal_by": PIUS_IX,
            "predecessor": PIUS_IX,
            "successor": PIUS_X,
            "notable": [
                "Aeterni Patris (1879)",
                "Rerum novarum (1891)",
                "Providentissimus Deus (1893)",
                "Apostolicae curae (1896)",
            ],
        },
    },
    {
        "id": "pope-pius-x",
        "name": "Pope Pius X",
        "aliases": ["Saint Pius X", "Giuseppe Melchiorre Sarto", "Giuseppe Sarto"],
        "summary": "Pope 1903–1914; frequent and early Communion; a saint",
        "shape": ["camel"],
        "text": (
            "**Pope Saint Pius X** (Giuseppe Sarto, 1835–1914), the son of a village postman, "
            "had been a parish priest, Bishop of Mantua and Patriarch of Venice. His motto was "
            "*Instaurare omnia in Christo*: to restore all things in Christ.\n\n"
            "He encouraged frequent Communion (1905) and admitted children to First Communion "
            "at the age of reason (*Quam singulari*, 1910), reformed church music, began the "
            "codification of canon law and condemned Modernism in *Pascendi* (1907). He was "
            "canonized by Pope Pius XII in 1954."
        ),
        "profile": {
            "ordinal": 257,
            "birth_name": "Giuseppe Melchiorre Sarto",
            "born": "1835-06-02",
            "birthplace": "Riese, Kingdom of Lombardy–Venetia",
            "died": "1914-08-20",
            "pontificate": {"start": "1903-08-04", "end": "1914-08-20"},
            "created_cardinal_by": LEO_XIII,
            "predecessor": LEO_XIII,
            "successor": BENEDICT_XV,
            "notable": [
                "Tra le sollecitudini (1903) on sacred music",
                "Pascendi Dominici gregis (1907)",
                "Quam singulari (1910): First Communion at the age of reason",
            ],
            "canonization": {"date": "1954-05-29", "pope": PIUS_XII},
            "feast_day": "August 21",
            "image_url": "https://upload.wikimedia.org/wikipedia/commons/4/40/Pope_Pius_X.jpg",
        },
    },
    {
        "id": "pope-benedict-xv",
        "name": "Pope Benedict XV",
        "aliases": ["Giacomo della Chiesa"],
        "summary": "Pope 1914–1922; peace efforts in the First World War, the 1917 Code",
        "shape": ["floats"],
        "text": (
            "**Pope Benedict XV** (Giacomo della Chiesa, 1854–1922) was elected a month after "
            "the First World War began and spent his pontificate pleading for peace, above "
            "all in his Peace Note of August 1917. He promulgated the first Code of Canon Law "
            "(1917) and, in *Maximum illud* (1919), called for a native clergy in the missions."
        ),
        "profile": {
            "ordinal": 258,
            "birth_name": "Giacomo Paolo Giovanni Battista della Chiesa",
            "born": "1854-11-21",
            "died": "1922-01-22",
            "pontificate": {"start": "1914-09-03", "end": "1922-01-22"},
            "created_cardinal_by": PIUS_X,
            "predecessor": PIUS_X,
            "successor": PIUS_XI,
            "notable": ["Peace Note (1917)", "1917 Code of Canon Law", "Maximum illud (1919)"],
            "encyclicals": 12,
        },
    },
    {
        "id": "pope-pius-xi",
        "name": "Pope Pius XI",
        "aliases": ["Achille Ratti", "Ambrogio Damiano Achille Ratti"],
        "summary": "Pope 1922–1939; Lateran Treaty, Quas primas, Mit brennender Sorge",
        "shape": [],
        "text": (
            "**Pope Pius XI** (Achille Ratti, 1857–1939), a scholar-librarian and mountaineer, "
            "took as his motto *Pax Christi in regno Christi*. He instituted the feast of Christ "
            "the King (*Quas primas*, 1925), settled the Roman Question with the Lateran Treaty "
            "(1929) that created Vatican City State, and wrote *Casti connubii* (1930) and "
            "*Quadragesimo anno* (1931). In 1937 he condemned Nazism in *Mit brennender Sorge* "
            "and atheistic Communism in *Divini Redemptoris*. He canonized Thérèse of Lisieux "
            "and made her, with Francis Xavier, patron of the missions."
        ),
        "profile": {
            "ordinal": 259,
            "birth_name": "Ambrogio Damiano Achille Ratti",
            "born": "1857-05-31",
            "died": "1939-02-10",
            "pontificate": {"start": "1922-02-06", "end": "1939-02-10"},
            "created_cardinal_by": BENEDICT_XV,
            "predecessor": BENEDICT_XV,
            "successor": PIUS_XII,
            "notable": [
                "Quas primas (1925): the feast of Christ the King",
                "Lateran Treaty (1929)",
                "Quadragesimo anno (1931)",
                "Mit brennender Sorge (1937)",
            ],
            "image_url": "https://upload.wikimedia.org/wikipedia/commons/2/27/Pius_XI.jpg",
        },
    },
    {
        "id": "pope-pius-xii",
        "name": "Pope Pius XII",
        "aliases": ["Eugenio Pacelli", "Venerable Pius XII"],
        "summary": "Pope 1939–1958; defined the Assumption",
        "shape": ["nest:pope"],
        "text": (
            "**Pope Pius XII** (Eugenio Pacelli, 1876–1958), a Roman by birth and a diplomat "
            "who had been nuncio in Germany and Secretary of State, was elected on his 63rd "
            "birthday, months before the Second World War. His encyclicals *Mystici Corporis* "
            "and *Divino afflante Spiritu* (both 1943) shaped later theology and biblical "
            "studies; *Mediator Dei* (1947) treated the liturgy. On 1 November 1950 he defined "
            "the dogma of the Assumption in *Munificentissimus Deus*. He was declared "
            "Venerable in 2009."
        ),
        "profile": {
            "ordinal": 260,
            "birth_name": "Eugenio Maria Giuseppe Giovanni Pacelli",
            "born": "1876-03-02",
            "birthplace": "Rome",
            "died": "1958-10-09",
            "pontificate": {"start": "1939-03-02", "end": "1958-10-09"},
            "created_cardinal_by": PIUS_XI,
            "predecessor": PIUS_XI,
            "successor": JOHN_XXIII,
            "notable": [
                "Mystici Corporis Christi (1943)",
                "Divino afflante Spiritu (1943)",
                "Munificentissimus Deus (1950): the Assumption",
            ],
            "venerable": {"date": "2009-12-19", "pope": BENEDICT_XVI},
        },
    },
    {
        "id": "pope-john-xxiii",
        "name": "Pope John XXIII",
        "aliases": ["Saint John XXIII", "Angelo Giuseppe Roncalli", "Good Pope John"],
        "summary": "Pope 1958–1963; convoked the Second Vatican Council; a saint",
        "shape": ["floats"],
        "text": (
            "**Pope Saint John XXIII** (Angelo Giuseppe Roncalli, 1881–1963), born to a family "
            "of sharecroppers at Sotto il Monte near Bergamo, served as a diplomat in Bulgaria, "
            "Turkey and Greece, as nuncio in France and as Patriarch of Venice.\n\n"
            "Elected at 76 and expected to be a caretaker, he announced in January 1959 an "
            "ecumenical council, which opened on 11 October 1962. He wrote *Mater et "
            "Magistra* (1961) and *Pacem in terris* (1963). Beatified in 2000, he was "
            "canonized with John Paul II on 27 April 2014."
        ),
        "profile": {
            "ordinal": 261,
            "birth_name": "Angelo Giuseppe Roncalli",
            "born": "1881-11-25",
            "birthplace": "Sotto il Monte, Kingdom of Italy",
            "died": "1963-06-03",
            "pontificate": {"start": "1958-10-28", "end": "1963-06-03"},
            "created_cardinal_by": PIUS_XII,
            "predecessor": PIUS_XII,
            "successor": PAUL_VI,
            "notable": [
                "Convoked the Second Vatican Council (opened 1962)",
                "Mater et Magistra (1961)",
                "Pacem in terris (1963)",
            ],
            "beatification": {"date": "2000-09-03", "pope": JOHN_PAUL_II},
            "canonization": {"date": "2014-04-27", "pope": FRANCIS},
            "feast_day": "October 11",
            "age_at_election": 76,
            "image_url": "https://upload.wikimedia.org/wikipedia/commons/0/0f/Pope_John_XXIII.jpg",
        },
    },
    {
        "id": "pope-paul-vi",
        "name": "Pope Paul VI",
        "aliases": ["Saint Paul VI", "Giovanni Battista Montini"],
        "summary": "Pope 1963–1978; concluded Vatican II, Humanae vitae; a saint",
        "shape": ["camel", "nest:result"],
        "text": (
            "**Pope Saint Paul VI** (Giovanni Battista Montini, 1897–1978), Archbishop of Milan, "
            "continued and concluded the Second Vatican Council (1965) and carried out its "
            "reforms, including the Roman Missal of 1969. He was the first pope to travel by "
            "air to five continents, embraced Patriarch Athenagoras in Jerusalem (1964) and "
            "wrote *Populorum progressio* (1967), *Humanae vitae* (1968) and *Evangelii "
            "nuntiandi* (1975). He was canonized by Pope Francis in 2018."
        ),
        "profile": {
            "ordinal": 262,
            "birth_name": "Giovanni Battista Enrico Antonio Maria Montini",
            "born": "1897-09-26",
            "birthplace": "Concesio, Kingdom of Italy",
            "died": "1978-08-06",
            "pontificate": {"start": "1963-06-21", "end": "1978-08-06"},
            "created_cardinal_by": JOHN_XXIII,
            "predecessor": JOHN_XXIII,
            "successor": JOHN_PAUL_I,
            "notable": [
                "Closed the Second Vatican Council (1965)",
                "Humanae vitae (1968)",
                "Evangelii nuntiandi (1975)",
            ],
            "beatification": {"date": "2014-10-19", "pope": FRANCIS},
            "canonization": {"date": "2018-10-14", "pope": FRANCIS},
        },
    },
    {
        "id": "pope-john-paul-i",
        "name": "Pope John Paul I",
        "aliases": ["Albino Luciani", "Blessed John Paul I", "The Smiling Pope"],
        "summary": "Pope for 33 days in 1978; beatified 2022",
        "shape": [],
        "text": (
            "**Pope John Paul I** (Albino Luciani, 1912–1978), Patriarch of Venice, took the "
            "first double name in papal history in honour of his two predecessors. He died "
            '33 days after his election. Remembered as "the smiling pope", he was beatified '
            "by Pope Francis on 4 September 2022."
        ),
        "profile": {
            "ordinal": 263,
            "birth_name": "Albino Luciani",
            "born": "1912-10-17",
            "died": "1978-09-28",
            "pontificate": {"start": "1978-08-26", "end": "1978-09-28"},
            "created_cardinal_by": PAUL_VI,
            "predecessor": PAUL_VI,
            "successor": JOHN_PAUL_II,
            "beatification": {"date": "2022-09-04", "pope": FRANCIS},
        },
    },
    {
        "id": "pope-john-paul-ii",
        "name": "Pope John Paul II",
        "aliases": [
            "Saint John Paul II",
            "Karol Wojtyła",
            "Karol Józef Wojtyła",
            "John Paul the Great",
        ],
        "summary": "Pope 1978–2005; the first Slavic pope; a saint",
        "shape": [],
        "text": (
            "**Pope Saint John Paul II** (Karol Józef Wojtyła, 1920–2005) was born at Wadowice, "
            "studied for the priesthood in a clandestine seminary during the German occupation, "
            "and was Archbishop of Kraków from 1964 until his election in 1978, the first "
            "non-Italian pope since 1523.\n\n"
            "In nearly 27 years he made 104 journeys abroad, began the World Youth Days, "
            "promulgated the 1983 Code of Canon Law and the *Catechism of the Catholic Church* "
            "(1992), and wrote fourteen encyclicals, among them *Redemptor hominis*, "
            "*Veritatis splendor*, *Evangelium vitae* and *Fides et ratio*. He survived an "
            "assassination attempt in 1981 and led the Church into the Great Jubilee of 2000. "
            "He was canonized on 27 April 2014."
        ),
        "profile": {
            "ordinal": 264,
            "birth_name": "Karol Józef Wojtyła",
            "born": "1920-05-18",
            "birthplace": "Wadowice, Poland",
            "died": "2005-04-02",
            "pontificate": {"start": "1978-10-16", "end": "2005-04-02"},
            "created_cardinal_by": PAUL_VI,
            "previous_offices": [
                {
                    "title": "Archbishop of Kraków",
                    "diocese": {"id": "diocese-krakow", "name": "Archdiocese of Kraków"},
                    "from": "1964",
                    "to": "1978",
                }
            ],
            "predecessor": JOHN_PAUL_I,
            "successor": BENEDICT_XVI,
            "notable": [
                "1983 Code of Canon Law",
                "Catechism of the Catholic Church (1992)",
                "World Youth Days (from 1986)",
                "Great Jubilee of 2000",
            ],
            "beatification": {"date": "2011-05-01", "pope": BENEDICT_XVI},
            "canonization": {"date": "2014-04-27", "pope": FRANCIS},
            "feast_day": "October 22",
            "image_url": (
                "https://upload.wikimedia.org/wikipedia/commons/d/d0/Pope_John_Paul_II_1980.jpg"
            ),
        },
    },
    {
        "id": "pope-benedict-xvi",
        "name": "Pope Benedict XVI",
        "aliases": ["Joseph Ratzinger", "Joseph Aloisius Ratzinger", "Pope Emeritus Benedict XVI"],
        "summary": "Pope 2005–2013; theologian; renounced the papacy",
        "shape": ["camel"],
        "text": (
            "**Pope Benedict XVI** (Joseph Ratzinger, 1927–2022), a theologian and *peritus* "
            "at the Second Vatican Council, was Archbishop of Munich and Freising (1977–1982) "
            "and for 23 years Prefect of the Congregation for the Doctrine of the Faith.\n\n"
            "As pope he wrote *Deus caritas est* (2005), *Spe salvi* (2007) and *Caritas in "
            "veritate* (2009), the three-volume *Jesus of Nazareth*, and the motu proprio "
            "*Summorum Pontificum* (2007). On 11 February 2013 he announced his renunciation, "
            "effective on 28 February, the first since 1415; he lived as pope emeritus until "
            "his death on 31 December 2022."
        ),
        "profile": {
            "ordinal": 265,
            "birth_name": "Joseph Aloisius Ratzinger",
            "born": "1927-04-16",
            "birthplace": "Marktl am Inn, Bavaria, Germany",
            "died": "2022-12-31",
            "pontificate": {
                "start": "2005-04-19",
                "end": "2013-02-28",
                "end_reason": "renunciation",
            },
            "created_cardinal_by": PAUL_VI,
            "predecessor": JOHN_PAUL_II,
            "successor": FRANCIS,
            "notable": [
                "Deus caritas est (2005)",
                "Summorum Pontificum (2007)",
                "Caritas in veritate (2009)",
                "Renunciation of the papacy (2013)",
            ],
            "image_url": "https://upload.wikimedia.org/wikipedia/commons/a/a7/Benedykt_XVI.jpg",
        },
    },
    {
        "id": "pope-francis",
        "name": "Pope Francis",
        "aliases": ["Jorge Mario Bergoglio"],
        "summary": "Pope 2013–2025; the first Jesuit and first pope from the Americas",
        "shape": [],
        "text": (
            "**Pope Francis** (Jorge Mario Bergoglio, 1936–2025), a Jesuit and Archbishop of "
            "Buenos Aires, was the first pope from the Americas, the first Jesuit pope and the "
            "first to take the name of Francis of Assisi.\n\n"
            "His programme was set out in *Evangelii gaudium* (2013); he wrote *Laudato si'* "
            "(2015) on care for our common home and *Fratelli tutti* (2020), proclaimed the "
            "Extraordinary Jubilee of Mercy (2015–2016), reformed the Roman Curia with "
            "*Praedicate evangelium* (2022) and convened the Synod on Synodality. He died on "
            "Easter Monday, 21 April 2025."
        ),
        "profile": {
            "ordinal": 266,
            "birth_name": "Jorge Mario Bergoglio",
            "born": "1936-12-17",
            "birthplace": "Buenos Aires, Argentina",
            "died": "2025-04-21",
            "religious_order": "Society of Jesus",
            "pontificate": {"start": "2013-03-13", "end": "2025-04-21"},
            "created_cardinal_by": JOHN_PAUL_II,
            "previous_offices": [
                {"title": "Archbishop of Buenos Aires", "from": "1998", "to": "2013"}
            ],
            "predecessor": BENEDICT_XVI,
            "successor": LEO_XIV,
            "notable": [
                "Evangelii gaudium (2013)",
                "Laudato si' (2015)",
                "Amoris laetitia (2016)",
                "Fratelli tutti (2020)",
                "Praedicate evangelium (2022)",
            ],
            "image_url": "https://upload.wikimedia.org/wikipedia/commons/7/7e/Pope_Francis_2014.jpg",
        },
    },
    {
        "id": "pope-leo-xiv",
        "name": "Pope Leo XIV",
        "aliases": ["Robert Francis Prevost", "Robert Prevost"],
        "summary": "Pope since 2025; the first pope born in the United States",
        "shape": ["nest:result"],
        "text": (
            "**Pope Leo XIV** (Robert Francis Prevost, born 1955 in Chicago) was elected on "
            "8 May 2025, the first pope born in the United States and the first from the Order "
            "of Saint Augustine.\n\n"
            "A missionary in Peru for many years and a naturalised Peruvian citizen, he was "
            "Prior General of the Augustinians (2001–2013), Bishop of Chiclayo and, from 2023, "
            "Prefect of the Dicastery for Bishops; Pope Francis created him a cardinal in "
            "September 2023."
        ),
        "profile": {
            "ordinal": 267,
            "birth_name": "Robert Francis Prevost",
            "born": "1955-09-14",
            "birthplace": "Chicago, Illinois, United States",
            "religious_order": "Order of Saint Augustine",
            "pontificate": {"start": "2025-05-08", "end": None},
            "created_cardinal_by": FRANCIS,
            "previous_offices": [
                {
                    "title": "Prior General of the Order of Saint Augustine",
                    "from": "2001",
                    "to": "2013",
                },
                {"title": "Bishop of Chiclayo", "from": "2015", "to": "2023"},
                {"title": "Prefect of the Dicastery for Bishops", "from": "2023", "to": "2025"},
            ],
            "predecessor": FRANCIS,
            "successor": None,
            "diocese": {"id": "diocese-rome", "name": "Diocese of Rome"},
        },
    },
]
