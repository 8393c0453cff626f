"""Canned catholic_qa answers on grace and two of the virtues it brings: the README's examples
("What is grace?", "And mercy?", "What is hope?") get an answer of their own."""

from __future__ import annotations

from devtools.fake_magisterium.answers_data import CCC, Cite, Topic

GRACE = (
    Topic(
        "grace",
        ("grace", "graces", "sanctifying", "justification", "justified"),
        "Grace is favour, the free and undeserved help that God gives us to respond to his "
        "call to become children of God and partakers of the divine nature [1].\n\n"
        "**Sanctifying grace** is a habitual gift, a stable disposition that perfects the soul "
        "itself to enable it to live with God and act by his love; **actual graces** are God's "
        "interventions at the beginning of conversion or in the course of the work of "
        "sanctification [2].\n\n**Freely given.** Grace is first and foremost the gift of the "
        "Spirit who justifies and sanctifies us; no one can merit the initial grace of "
        "forgiveness and justification [3]. It is received in the sacraments above all, "
        "beginning with Baptism.",
        (
            Cite(
                CCC,
                "CCC 1996",
                "Grace",
                "Our justification comes from the grace of God. Grace is favor, the free and "
                "undeserved help that God gives us to respond to his call.",
            ),
            Cite(
                CCC,
                "CCC 2000",
                "Sanctifying and actual grace",
                "Sanctifying grace is an habitual gift, a stable and supernatural disposition; "
                "actual graces refer to God's interventions.",
            ),
            Cite(
                CCC,
                "CCC 2010",
                "Merit",
                "Since the initiative belongs to God in the order of grace, no one can merit "
                "the initial grace of forgiveness and justification.",
            ),
        ),
        (
            "Who gives grace, and how is it received?",
            "What is the difference between sanctifying and actual grace?",
            "Can grace be lost?",
        ),
    ),
    Topic(
        "mercy",
        ("mercy", "merciful", "forgiveness", "forgive", "works of mercy"),
        "God's mercy is his love that goes out to sinners: the Gospel is the revelation in "
        "Jesus Christ of God's mercy to sinners [1]. To receive it, we must admit our faults; "
        "God's mercy has no limits, but whoever deliberately refuses to accept it by "
        "repentance rejects the forgiveness of sins [2].\n\n**Living it.** The works of mercy "
        "are charitable actions by which we come to the aid of our neighbour in his spiritual "
        "and bodily necessities: instructing, advising, consoling and forgiving, as well as "
        "feeding the hungry, sheltering the homeless and visiting the sick [3].",
        (
            Cite(
                CCC,
                "CCC 1846",
                "Mercy and sin",
                "The Gospel is the revelation in Jesus Christ of God's mercy to sinners.",
            ),
            Cite(
                CCC,
                "CCC 1864",
                "The sin against the Holy Spirit",
                "There are no limits to the mercy of God, but anyone who deliberately refuses "
                "to accept his mercy by repenting rejects the forgiveness of sins.",
            ),
            Cite(
                CCC,
                "CCC 2447",
                "The works of mercy",
                "The works of mercy are charitable actions by which we come to the aid of our "
                "neighbor in his spiritual and bodily necessities.",
            ),
        ),
        (
            "What are the spiritual works of mercy?",
            "How does Confession show God's mercy?",
            "Why must we forgive others?",
        ),
    ),
    Topic(
        "hope",
        ("hope", "hopeful", "despair", "heaven", "eternal life"),
        "Hope is the theological virtue by which we desire the Kingdom of heaven and eternal "
        "life as our happiness, placing our trust in Christ's promises and relying not on our "
        "own strength, but on the help of the grace of the Holy Spirit [1].\n\n**What it "
        "does.** Hope responds to the aspiration to happiness God has placed in every heart; "
        "it keeps us from discouragement, sustains us in times of abandonment and opens up "
        "our hearts in expectation of eternal beatitude [2].\n\n**What opposes it.** Despair, "
        "by which one ceases to hope for salvation, and presumption, which expects it without "
        "conversion [3].",
        (
            Cite(
                CCC,
                "CCC 1817",
                "Hope",
                "Hope is the theological virtue by which we desire the kingdom of heaven and "
                "eternal life as our happiness.",
            ),
            Cite(
                CCC,
                "CCC 1818",
                "Hope and the desire for happiness",
                "The virtue of hope responds to the aspiration to happiness which God has "
                "placed in the heart of every man.",
            ),
            Cite(
                CCC,
                "CCC 2091-2092",
                "Sins against hope",
                "By despair, man ceases to hope for his personal salvation; presumption hopes "
                "to obtain forgiveness without conversion.",
            ),
        ),
        (
            "What are the theological virtues?",
            "How is hope different from optimism?",
            "What does the Church teach about heaven?",
        ),
    ),
)
