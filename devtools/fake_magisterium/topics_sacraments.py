"""Canned catholic_qa answers on the sacraments: Eucharist, confession, Baptism."""

from __future__ import annotations

from devtools.fake_magisterium.answers_data import CCC, Cite, Topic

SACRAMENTS = (
    Topic(
        "the Eucharist",
        (
            "eucharist",
            "communion",
            "mass",
            "real presence",
            "transubstantiation",
            "body of christ",
            "blessed sacrament",
        ),
        "The Catholic Church teaches that in the Eucharist Jesus Christ is truly, really and "
        "substantially present, body and blood, soul and divinity, under the appearances of "
        "bread and wine [1].\n\n**How the change happens.** At the consecration the whole "
        "substance of the bread becomes Christ's body and the whole substance of the wine his "
        "blood, while the appearances of bread and wine remain. The Church calls this change "
        "*transubstantiation* [1].\n\n**Why it matters.** The Mass makes present the one "
        "sacrifice of Christ on the Cross, and the Church draws her very life from it [2]. The "
        "Second Vatican Council calls the Eucharistic sacrifice the source and summit of the "
        "whole Christian life [3].\n\nBecause Christ remains present as long as the sacred "
        "species remain, the faithful also adore him in the Blessed Sacrament outside Mass [2].",
        (
            Cite(
                CCC,
                "CCC 1374-1376",
                "The presence of Christ by the power of his word",
                "By the consecration the substance of bread and wine is changed into the body "
                "and blood of Christ, a change the Church fittingly calls transubstantiation.",
            ),
            Cite(
                "12364",
                "Ecclesia de Eucharistia 1",
                "Introduction",
                "The Church lives from the Eucharist, which makes present the sacrifice of "
                "the Cross.",
            ),
            Cite(
                "12345",
                "Lumen Gentium 11",
                "Chapter II: The People of God",
                "Sharing in the Eucharistic sacrifice, the source and summit of the Christian "
                "life, the faithful offer the divine Victim to God and themselves with it.",
            ),
        ),
        (
            "Why do Catholics believe the Eucharist is really Jesus?",
            "What does it mean that the Mass is a sacrifice?",
            "How should I prepare to receive Holy Communion?",
        ),
    ),
    Topic(
        "confession",
        (
            "confession",
            "confess",
            "reconciliation",
            "penance",
            "sin",
            "sins",
            "forgive",
            "forgiveness",
            "absolution",
        ),
        "In the sacrament of Penance, also called Confession or Reconciliation, Christ forgives "
        "the sins committed after Baptism through the ministry of the priest [1].\n\n**What the "
        "penitent does.** The sacrament involves contrition (sorrow for sin with the resolve not "
        "to sin again), the confession of sins to the priest, and satisfaction, the penance the "
        "confessor gives. All grave sins one remembers after a careful examination of conscience "
        "must be confessed [2].\n\n**What God does.** Through the priest's absolution God grants "
        "pardon and peace, and the penitent is reconciled with God and with the Church [3]. The "
        "priest is bound by the absolute seal of confession never to reveal what he hears [4].",
        (
            Cite(
                CCC,
                "CCC 1422",
                "The sacrament of Penance and Reconciliation",
                "Those who approach this sacrament obtain pardon from God's mercy and are "
                "reconciled with the Church.",
            ),
            Cite(
                CCC,
                "CCC 1450-1456",
                "The acts of the penitent",
                "Penance requires contrition of heart, confession by the lips and humble "
                "satisfaction.",
            ),
            Cite(
                CCC,
                "CCC 1468-1469",
                "The effects of this sacrament",
                "The whole power of the sacrament consists in restoring us to God's grace "
                "and joining us with him in friendship.",
            ),
            Cite(
                CCC,
                "CCC 1467",
                "The minister of this sacrament",
                "Every priest who hears confessions is bound under very severe penalties to "
                "keep absolute secrecy.",
            ),
        ),
        (
            "How do I make a good examination of conscience?",
            "What is the difference between mortal and venial sin?",
            "Can a priest ever reveal what is said in confession?",
        ),
    ),
    Topic(
        "Baptism",
        (
            "baptism",
            "baptize",
            "baptized",
            "baptise",
            "baptised",
            "christening",
            "original sin",
            "godparent",
        ),
        "Baptism is the first sacrament of Christian initiation, the gateway to life in the "
        "Spirit and to the other sacraments [1].\n\n**Effects.** Baptism forgives original sin "
        "and all personal sins, makes the baptized a new creature and an adopted child of God, "
        "incorporates them into the Church, and marks them with an indelible spiritual seal, so "
        "it is never repeated [2].\n\n**Infant Baptism.** Because children too are born with a "
        "fallen human nature, the Church has baptized infants since the earliest times [3].\n\n"
        "**Necessity.** Baptism is necessary for salvation for those to whom the Gospel has "
        "been proclaimed; yet God has bound salvation to the sacraments without himself being "
        "bound by them [4].",
        (
            Cite(
                CCC,
                "CCC 1213",
                "The sacrament of Baptism",
                "Baptism is the basis of the whole Christian life and the door which gives "
                "access to the other sacraments.",
            ),
            Cite(
                CCC,
                "CCC 1262-1274",
                "The grace of Baptism",
                "Baptism purifies from sin, gives new birth in the Holy Spirit and seals the "
                "Christian with an indelible character.",
            ),
            Cite(
                CCC,
                "CCC 1250-1252",
                "Who can receive Baptism?",
                "The practice of infant Baptism is an immemorial tradition of the Church.",
            ),
            Cite(
                CCC,
                "CCC 1257",
                "The necessity of Baptism",
                "God has bound salvation to the sacrament of Baptism, but he himself is not "
                "bound by his sacraments.",
            ),
        ),
        (
            "Why does the Church baptize infants?",
            "What is the role of a godparent?",
            "What happens to children who die without Baptism?",
        ),
    ),
)
