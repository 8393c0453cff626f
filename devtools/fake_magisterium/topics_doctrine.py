"""Canned catholic_qa answers on doctrine and devotion: Trinity, Mary, prayer, saints."""

from __future__ import annotations

from devtools.fake_magisterium.answers_data import CCC, Cite, Topic

DOCTRINE = (
    Topic(
        "the Trinity",
        ("trinity", "triune", "three persons", "holy spirit", "one god"),
        "The mystery of the Most Holy Trinity is the central mystery of Christian faith and "
        "life: there is one God in three divine Persons, the Father, the Son and the Holy "
        "Spirit [1].\n\n**One God, three Persons.** The Persons do not divide the one divinity "
        "among themselves: each of them is wholly God. They are really distinct from one another "
        "only by their relations of origin: the Father begets, the Son is begotten, the Holy "
        "Spirit proceeds [2].\n\n**Known by revelation.** Reason alone could not have "
        "discovered this mystery; God revealed it by sending his Son and the Holy Spirit [1]. "
        "Every Christian is baptized in the name of the Father and of the Son and of the Holy "
        "Spirit [3].",
        (
            Cite(
                CCC,
                "CCC 234",
                "The Holy Trinity in the teaching of the faith",
                "The Trinity is the central mystery of Christian faith and life, the mystery "
                "of God in himself, revealed by God alone.",
            ),
            Cite(
                CCC,
                "CCC 253-255",
                "The dogma of the Holy Trinity",
                "The divine Persons are one God, each wholly God, and are distinct only in "
                "their relations of origin.",
            ),
            Cite(
                CCC,
                "CCC 232",
                "In the name of the Father and of the Son",
                "Christians are baptized in the name, not the names, of the Father, the Son "
                "and the Holy Spirit.",
            ),
        ),
        (
            "How can God be three and one at the same time?",
            "Where is the Trinity revealed in Scripture?",
            "What does it mean that the Holy Spirit proceeds from the Father and the Son?",
        ),
    ),
    Topic(
        "Mary",
        (
            "mary",
            "virgin",
            "mother of god",
            "immaculate",
            "assumption",
            "theotokos",
            "marian",
            "rosary",
        ),
        "The Church honours Mary as the Mother of God (*Theotokos*), because the one she "
        "conceived by the Holy Spirit is truly the eternal Son of God made man [1].\n\n"
        "**Immaculate Conception.** By a singular grace, and in view of the merits of her Son, "
        "Mary was preserved from every stain of original sin from the first moment of her "
        "conception [2].\n\n**Assumption.** At the end of her earthly life she was taken up body "
        "and soul into heavenly glory, as Pius XII solemnly defined in 1950 [3].\n\nMary is "
        "never honoured in place of Christ but always in relation to him: she is the first and "
        "most perfect disciple and the model of the Church's faith and charity [4].",
        (
            Cite(
                CCC,
                "CCC 495",
                "Mary's divine motherhood",
                "Mary is truly the Mother of God, since she is the mother of the eternal Son "
                "of God made man.",
            ),
            Cite(
                CCC,
                "CCC 491-492",
                "The Immaculate Conception",
                "Mary was redeemed from the moment of her conception by reason of the merits "
                "of her Son.",
            ),
            Cite(
                "12366",
                "Munificentissimus Deus 44",
                "Definition of the dogma",
                "Having completed the course of her earthly life, Mary was assumed body and "
                "soul into heavenly glory.",
            ),
            Cite(
                "12345",
                "Lumen Gentium 63",
                "Chapter VIII: Mary and the Church",
                "Mary is a type of the Church in faith, charity and perfect union with Christ.",
            ),
        ),
        (
            "Why do Catholics pray to Mary?",
            "What is the difference between the Immaculate Conception and the Virgin Birth?",
            "How do I pray the Rosary?",
        ),
    ),
    Topic(
        "prayer",
        ("prayer", "pray", "praying", "our father", "lord's prayer", "contemplation", "meditation"),
        "Prayer is the raising of the mind and heart to God, or asking him for good things [1]. "
        "It is a gift of grace and a living relationship with the Father, through Christ, in "
        "the Holy Spirit.\n\n**Forms of prayer.** The Church names blessing and adoration, "
        "petition, intercession, thanksgiving and praise as the basic forms of Christian prayer "
        "[2].\n\n**Expressions of prayer.** Prayer can be vocal, meditative or contemplative; "
        "all three require the presence of the heart [3].\n\n**The Lord's Prayer.** The Our "
        "Father, taught by Jesus himself, is called a summary of the whole Gospel [4].",
        (
            Cite(
                CCC,
                "CCC 2559",
                "What is prayer?",
                "Prayer is the raising of one's mind and heart to God or the requesting of "
                "good things from God.",
            ),
            Cite(
                CCC,
                "CCC 2626-2643",
                "The forms of prayer",
                "Blessing, petition, intercession, thanksgiving and praise are the forms of "
                "prayer the Holy Spirit teaches the Church.",
            ),
            Cite(
                CCC,
                "CCC 2700-2724",
                "Expressions of prayer",
                "Vocal prayer, meditation and contemplative prayer share one trait: the "
                "recollection of the heart.",
            ),
            Cite(
                CCC,
                "CCC 2761",
                "The summary of the whole Gospel",
                "The Lord's Prayer is truly the summary of the whole Gospel.",
            ),
        ),
        (
            "How can I pray when I feel distracted?",
            "What is contemplative prayer?",
            "Why do Catholics pray the Liturgy of the Hours?",
        ),
    ),
    Topic(
        "the saints",
        (
            "saint",
            "saints",
            "canonization",
            "canonized",
            "canonised",
            "intercession",
            "communion of saints",
        ),
        "The saints are those who lived the Christian life with heroic faithfulness and now "
        "share in God's glory. By canonizing them, the Church recognizes the power of the "
        "Spirit at work in them and proposes them as models and intercessors [1].\n\n**The "
        "communion of saints.** The faithful on earth, those being purified after death and "
        "the blessed in heaven form one family in Christ, and they help one another [2].\n\n"
        "**Honour, not worship.** Catholics adore God alone; they honour the saints and ask "
        "their prayers, because the saints, being closer to Christ, do not cease to intercede "
        "for us [3].\n\n**Everyone is called.** Holiness is not reserved to a few: every "
        "baptized person, in every state of life, is called to the fullness of Christian "
        "life and the perfection of charity [4].",
        (
            Cite(
                CCC,
                "CCC 828",
                "The Church is holy",
                "By canonizing some of the faithful, the Church recognizes the power of the "
                "Spirit of holiness within her.",
            ),
            Cite(
                CCC,
                "CCC 954-959",
                "The communion of the Church of heaven and earth",
                "The pilgrims on earth, the dead being purified and the blessed in heaven "
                "together form one Church.",
            ),
            Cite(
                CCC,
                "CCC 956",
                "The intercession of the saints",
                "Being more closely united to Christ, those in heaven do not cease to "
                "intercede with the Father for us.",
            ),
            Cite(
                "12345",
                "Lumen Gentium 40",
                "Chapter V: The universal call to holiness",
                "All the faithful, of whatever rank or status, are called to the fullness of "
                "the Christian life and the perfection of charity.",
            ),
        ),
        (
            "How does someone become a canonized saint?",
            "Why do Catholics ask saints to pray for them?",
            "Who is the patron saint of my profession?",
        ),
    ),
)
