"""Lectionary table: proper readings of great feasts, and seasonal pools for other days.

Summaries are short paraphrases, not lectionary text. Ordinary days draw deterministically from
the pools of their season, so they are plausible rather than the day's actual readings.
"""

from __future__ import annotations

from typing import NamedTuple


class Reading(NamedTuple):
    ref: str
    summary: str


class Lectionary(NamedTuple):
    first: Reading
    psalm: Reading
    second: Reading | None
    gospel: Reading


R = Reading

PROPER: dict[str, Lectionary] = {
    "The Nativity of the Lord (Christmas)": Lectionary(
        R(
            "Isaiah 52:7-10",
            "How beautiful are the feet of the messenger who announces peace: "
            "the Lord comforts his people and all the earth sees his salvation.",
        ),
        R("Psalm 98:1-6", "All the ends of the earth have seen the saving power of God."),
        R(
            "Hebrews 1:1-6",
            "God, who once spoke through the prophets, now speaks to us through "
            "his Son, the radiance of his glory.",
        ),
        R(
            "John 1:1-18",
            "The Word who was with God and was God became flesh and made his "
            "dwelling among us, full of grace and truth.",
        ),
    ),
    "Solemnity of Mary, the Holy Mother of God": Lectionary(
        R(
            "Numbers 6:22-27",
            "The priestly blessing: the Lord bless you, keep you and give you peace.",
        ),
        R(
            "Psalm 67:2-3, 5, 6, 8",
            "May God be gracious to us and bless us, and let all nations praise him.",
        ),
        R(
            "Galatians 4:4-7",
            "In the fullness of time God sent his Son, born of a woman, so that "
            'we might be adopted as children and cry out "Abba, Father".',
        ),
        R(
            "Luke 2:16-21",
            "The shepherds find Mary, Joseph and the infant; Mary treasures all "
            "these things in her heart, and the child is named Jesus.",
        ),
    ),
    "The Epiphany of the Lord": Lectionary(
        R(
            "Isaiah 60:1-6",
            "Rise up in splendour, Jerusalem: nations shall walk by your light, "
            "bearing gold and frankincense.",
        ),
        R("Psalm 72:1-2, 7-8, 10-13", "Every nation on earth will adore the Lord."),
        R(
            "Ephesians 3:2-3a, 5-6",
            "The Gentiles are coheirs and members of the same body, sharing the promise in Christ.",
        ),
        R(
            "Matthew 2:1-12",
            "Magi from the east follow the star to Bethlehem and offer the child "
            "gold, frankincense and myrrh.",
        ),
    ),
    "Solemnity of Saint Joseph, Spouse of the Blessed Virgin Mary": Lectionary(
        R(
            "2 Samuel 7:4-5a, 12-14a, 16",
            "God promises David an heir whose kingdom and throne will stand firm for ever.",
        ),
        R("Psalm 89:2-5, 27, 29", "The son of David will live for ever."),
        R(
            "Romans 4:13, 16-18, 22",
            "Abraham, hoping against hope, believed and became the father of many nations.",
        ),
        R(
            "Matthew 1:16, 18-21, 24a",
            "An angel tells Joseph, a righteous man, not to fear taking "
            "Mary as his wife; he does as the angel commanded.",
        ),
    ),
    "The Annunciation of the Lord": Lectionary(
        R(
            "Isaiah 7:10-14; 8:10",
            "The Lord himself gives a sign: the virgin shall conceive and bear a son, Emmanuel.",
        ),
        R("Psalm 40:7-11", "Here I am, Lord; I come to do your will."),
        R(
            "Hebrews 10:4-10",
            "Christ comes into the world to do the Father's will, and by that "
            "will we are made holy through the offering of his body.",
        ),
        R(
            "Luke 1:26-38",
            "Gabriel announces to Mary that she will bear the Son of the Most "
            "High; she answers that she is the handmaid of the Lord.",
        ),
    ),
    "Solemnity of Saints Peter and Paul, Apostles": Lectionary(
        R(
            "Acts 12:1-11",
            "An angel frees Peter from Herod's prison while the Church prays for him.",
        ),
        R("Psalm 34:2-9", "The angel of the Lord rescues those who fear him."),
        R(
            "2 Timothy 4:6-8, 17-18",
            "Paul has fought the good fight, finished the race and kept "
            "the faith; the Lord stood by him.",
        ),
        R(
            "Matthew 16:13-19",
            "Peter confesses Jesus as the Christ, and Jesus names him the rock "
            "on which he will build his Church.",
        ),
    ),
    "The Assumption of the Blessed Virgin Mary": Lectionary(
        R(
            "Revelation 11:19a; 12:1-6a, 10ab",
            "A great sign appears in heaven: a woman clothed "
            "with the sun, the moon under her feet.",
        ),
        R("Psalm 45:10-12, 16", "The queen stands at your right hand, arrayed in gold."),
        R(
            "1 Corinthians 15:20-27",
            "Christ is raised as the first fruits; then, at his coming, those who belong to him.",
        ),
        R(
            "Luke 1:39-56",
            "Mary visits Elizabeth and proclaims the greatness of the Lord who has "
            "done great things for her.",
        ),
    ),
    "All Saints": Lectionary(
        R(
            "Revelation 7:2-4, 9-14",
            "A great multitude from every nation stands before the throne, robed in white.",
        ),
        R("Psalm 24:1-6", "Such are the people that long to see the face of the Lord."),
        R(
            "1 John 3:1-3",
            "See what love the Father has given us: we are called children of God, "
            "and we shall see him as he is.",
        ),
        R(
            "Matthew 5:1-12a",
            "Jesus teaches the Beatitudes: blessed are the poor in spirit, the "
            "meek, the merciful and the pure of heart.",
        ),
    ),
    "The Commemoration of All the Faithful Departed": Lectionary(
        R(
            "Wisdom 3:1-9",
            "The souls of the just are in the hand of God, and no torment shall touch them.",
        ),
        R("Psalm 23:1-6", "The Lord is my shepherd; even in the dark valley I fear no evil."),
        R(
            "Romans 5:5-11",
            "Justified by Christ's blood, we shall be saved through him from the wrath to come.",
        ),
        R(
            "John 6:37-40",
            "It is the Father's will that Jesus lose nothing of what he has been "
            "given, but raise it up on the last day.",
        ),
    ),
    "Feast of Saint Andrew, Apostle": Lectionary(
        R(
            "Romans 10:9-18",
            "Faith comes from what is heard; the voice of the messengers has "
            "gone out to all the earth.",
        ),
        R("Psalm 19:8-11", "Their message goes out through all the earth."),
        None,
        R(
            "Matthew 4:18-22",
            "Jesus calls the fishermen Peter and Andrew to follow him and become fishers of men.",
        ),
    ),
    "The Immaculate Conception of the Blessed Virgin Mary": Lectionary(
        R(
            "Genesis 3:9-15, 20",
            "God promises enmity between the serpent and the woman, whose "
            "offspring will strike at its head.",
        ),
        R("Psalm 98:1-4", "Sing to the Lord a new song, for he has done marvellous deeds."),
        R(
            "Ephesians 1:3-6, 11-12",
            "God chose us in Christ before the foundation of the world "
            "to be holy and blameless before him.",
        ),
        R(
            "Luke 1:26-38",
            "Gabriel greets Mary as full of grace and announces the birth of the Son of God.",
        ),
    ),
    "Ash Wednesday": Lectionary(
        R(
            "Joel 2:12-18",
            "Return to the Lord with your whole heart, with fasting and weeping; "
            "rend your hearts, not your garments.",
        ),
        R("Psalm 51:3-6, 12-14, 17", "Be merciful, O Lord, for we have sinned."),
        R(
            "2 Corinthians 5:20-6:2",
            "Be reconciled to God: now is the acceptable time, now is the day of salvation.",
        ),
        R(
            "Matthew 6:1-6, 16-18",
            "Give alms, pray and fast in secret, and your Father who sees "
            "in secret will repay you.",
        ),
    ),
    "Holy Thursday, Mass of the Lord's Supper": Lectionary(
        R(
            "Exodus 12:1-8, 11-14",
            "The Lord gives Israel the Passover meal, a memorial feast for all generations.",
        ),
        R("Psalm 116:12-13, 15-18", "Our blessing-cup is a communion with the blood of Christ."),
        R(
            "1 Corinthians 11:23-26",
            "Paul hands on what he received: on the night he was "
            'betrayed the Lord took bread, gave thanks and said "This is my body".',
        ),
        R(
            "John 13:1-15",
            "Jesus, loving his own to the end, washes his disciples' feet and bids "
            "them do the same.",
        ),
    ),
    "Good Friday of the Passion of the Lord": Lectionary(
        R(
            "Isaiah 52:13-53:12",
            "The suffering servant, pierced for our offences, bears the "
            "guilt of many and is exalted.",
        ),
        R("Psalm 31:2, 6, 12-13, 15-17, 25", "Father, into your hands I commend my spirit."),
        R(
            "Hebrews 4:14-16; 5:7-9",
            "Our high priest was tested in every way yet without sin; he "
            "became the source of eternal salvation.",
        ),
        R("John 18:1-19:42", "The Passion of our Lord Jesus Christ according to John."),
    ),
    "Easter Sunday of the Resurrection of the Lord": Lectionary(
        R(
            "Acts 10:34a, 37-43",
            "Peter testifies that God raised Jesus on the third day and that "
            "the apostles ate and drank with him.",
        ),
        R(
            "Psalm 118:1-2, 16-17, 22-23",
            "This is the day the Lord has made; let us rejoice and be glad.",
        ),
        R(
            "Colossians 3:1-4",
            "If you were raised with Christ, seek what is above, where Christ "
            "is seated at God's right hand.",
        ),
        R(
            "John 20:1-9",
            "Mary Magdalene finds the tomb empty; Peter and the other disciple run "
            "to it, and the other disciple sees and believes.",
        ),
    ),
    "Pentecost Sunday": Lectionary(
        R(
            "Acts 2:1-11",
            "The Spirit comes upon the disciples as tongues of fire, and every "
            "nation hears them in its own language.",
        ),
        R(
            "Psalm 104:1, 24, 29-31, 34",
            "Lord, send out your Spirit and renew the face of the earth.",
        ),
        R(
            "1 Corinthians 12:3b-7, 12-13",
            "There are different gifts but the same Spirit; in one "
            "Spirit we were all baptized into one body.",
        ),
        R(
            "John 20:19-23",
            "The risen Jesus breathes on the disciples: receive the Holy Spirit; "
            "whose sins you forgive are forgiven.",
        ),
    ),
}
