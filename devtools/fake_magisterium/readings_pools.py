"""Seasonal pools of readings for days without proper readings (short paraphrases)."""

from __future__ import annotations

from devtools.fake_magisterium.readings_data import Reading

R = Reading

FIRST: dict[str, tuple[Reading, ...]] = {
    "advent": (
        R(
            "Isaiah 2:1-5",
            "All nations stream to the mountain of the Lord, where swords are "
            "beaten into ploughshares.",
        ),
        R(
            "Isaiah 11:1-10",
            "A shoot springs from the stump of Jesse; the Spirit of the Lord "
            "rests on him, and the wolf lies down with the lamb.",
        ),
        R(
            "Isaiah 35:1-6a, 10",
            "The desert blooms and the blind see, for God comes to save his people.",
        ),
        R(
            "Isaiah 40:1-5, 9-11",
            "Comfort my people: prepare the way of the Lord, who feeds his flock like a shepherd.",
        ),
    ),
    "christmas": (
        R(
            "Isaiah 9:1-6",
            "The people who walked in darkness have seen a great light: a child is "
            "born to us, the Prince of Peace.",
        ),
        R(
            "Sirach 3:2-6, 12-14",
            "Whoever honours father and mother atones for sins and stores up riches.",
        ),
        R(
            "1 John 1:1-4",
            "What we have seen and touched of the Word of life we proclaim to you, "
            "so that our joy may be complete.",
        ),
    ),
    "lent": (
        R(
            "Genesis 2:7-9; 3:1-7",
            "Tempted by the serpent, the man and the woman eat the "
            "forbidden fruit, and their eyes are opened.",
        ),
        R(
            "Genesis 12:1-4a",
            "God calls Abram to leave his homeland and promises that all the "
            "families of the earth will be blessed in him.",
        ),
        R(
            "Exodus 17:3-7",
            "At Massah and Meribah the thirsting people test God, and water flows from the rock.",
        ),
        R(
            "Ezekiel 37:12-14",
            "God promises to open the graves of his people and put his spirit "
            "in them that they may live.",
        ),
        R(
            "Isaiah 58:1-9a",
            "The fast God wants is to free the oppressed and share bread with the hungry.",
        ),
    ),
    "easter": (
        R(
            "Acts 2:14, 22-33",
            "Peter proclaims that God raised Jesus from the dead, as David had foreseen.",
        ),
        R(
            "Acts 2:42-47",
            "The believers devote themselves to the apostles' teaching, to the "
            "breaking of the bread and to prayer.",
        ),
        R(
            "Acts 6:1-7",
            "The apostles choose seven men to serve at table, and the word of God "
            "continues to spread.",
        ),
        R(
            "Acts 8:5-8, 14-17",
            "Philip preaches in Samaria; Peter and John lay hands on the "
            "baptized, who receive the Holy Spirit.",
        ),
    ),
    "ordinary": (
        R(
            "1 Kings 19:9a, 11-13a",
            "Elijah meets the Lord not in the wind, the earthquake or the "
            "fire, but in a tiny whispering sound.",
        ),
        R(
            "Isaiah 55:10-11",
            "Like rain that waters the earth, the word of God does not return to him empty.",
        ),
        R(
            "Wisdom 12:13, 16-19",
            "God's might is the source of his justice; he judges with "
            "clemency and gives his children hope.",
        ),
        R(
            "Amos 6:1a, 4-7",
            "Woe to the complacent who feast in luxury and do not grieve over "
            "the ruin of their people.",
        ),
        R(
            "Jeremiah 20:7-9",
            "The word of the Lord is like a fire burning in the prophet's heart "
            "that he cannot hold in.",
        ),
        R(
            "Exodus 22:20-26",
            "God commands his people to protect the stranger, the widow, the orphan and the poor.",
        ),
    ),
}

PSALMS: tuple[Reading, ...] = (
    R("Psalm 23:1-6", "The Lord is a shepherd who guides, refreshes and protects his flock."),
    R("Psalm 25:4-9", "Teach me your paths, Lord, and guide me in your truth."),
    R("Psalm 34:2-9", "Taste and see the goodness of the Lord, who hears the cry of the poor."),
    R("Psalm 51:3-6, 12-14", "A sinner begs God for mercy and a clean heart."),
    R("Psalm 95:1-2, 6-9", "If today you hear his voice, harden not your hearts."),
    R(
        "Psalm 103:1-4, 8, 10-12",
        "The Lord is kind and merciful, slow to anger and rich in compassion.",
    ),
    R(
        "Psalm 130:1-8",
        "Out of the depths the psalmist waits for the Lord, with whom there is "
        "plentiful redemption.",
    ),
    R("Psalm 145:8-11, 13-14", "The Lord is near to all who call upon him."),
)

SECOND: tuple[Reading, ...] = (
    R(
        "Romans 8:28-30",
        "All things work for good for those who love God and are called according to his purpose.",
    ),
    R(
        "1 Corinthians 12:4-11",
        "There are different gifts but the same Spirit, given to each for the common good.",
    ),
    R(
        "Philippians 2:1-11",
        "Christ emptied himself, taking the form of a slave, and God greatly exalted him.",
    ),
    R(
        "Colossians 3:12-17",
        "Put on compassion, kindness and forgiveness, and over all these put on love.",
    ),
    R(
        "Hebrews 12:1-4",
        "Surrounded by a cloud of witnesses, let us run the race with our eyes fixed on Jesus.",
    ),
    R("James 2:14-18", "Faith that does not show itself in works is dead."),
    R(
        "1 Peter 2:4-9",
        "Come to Christ, the living stone, and be built into a spiritual house, "
        "a royal priesthood.",
    ),
)

GOSPELS: dict[str, tuple[Reading, ...]] = {
    "advent": (
        R("Matthew 24:37-44", "Stay awake, for the Son of Man comes at an hour you do not expect."),
        R(
            "Matthew 3:1-12",
            "John the Baptist preaches repentance in the desert and points to "
            "one mightier than he.",
        ),
        R(
            "Luke 1:26-38",
            "The angel Gabriel announces to Mary that she will conceive the Son of God.",
        ),
        R("Mark 1:1-8", "John appears in the wilderness proclaiming a baptism of repentance."),
    ),
    "christmas": (
        R(
            "Luke 2:1-14",
            "Jesus is born in Bethlehem, and angels announce the good news to shepherds.",
        ),
        R(
            "Matthew 2:13-15, 19-23",
            "Warned in a dream, Joseph takes the child and his mother to "
            "Egypt, and later settles in Nazareth.",
        ),
        R("John 1:1-18", "The Word who was with God became flesh and dwelt among us."),
    ),
    "lent": (
        R(
            "Matthew 4:1-11",
            "Jesus fasts forty days in the desert and rejects the devil's temptations.",
        ),
        R("Matthew 17:1-9", "Jesus is transfigured before Peter, James and John."),
        R("John 4:5-42", "Jesus offers living water to the Samaritan woman at the well."),
        R("John 9:1-41", "Jesus heals a man born blind, who comes to believe in him."),
        R(
            "John 11:1-45",
            "Jesus raises Lazarus, declaring that he is the resurrection and the life.",
        ),
        R("Luke 15:1-3, 11-32", "The father runs to embrace his prodigal son who returns home."),
    ),
    "easter": (
        R(
            "John 20:19-31",
            "The risen Jesus gives the disciples the Spirit; Thomas comes to believe.",
        ),
        R(
            "Luke 24:13-35",
            "Two disciples recognise the risen Lord at Emmaus in the breaking of the bread.",
        ),
        R(
            "John 10:1-10",
            "Jesus is the gate for the sheep, come that they may have life in abundance.",
        ),
        R(
            "John 14:1-12",
            "Jesus is the way, the truth and the life; whoever has seen him has seen the Father.",
        ),
        R(
            "John 15:1-8",
            "Jesus is the vine and we are the branches; apart from him we can do nothing.",
        ),
    ),
    "ordinary": (
        R("Matthew 5:1-12a", "Jesus teaches the Beatitudes on the mountain."),
        R("Matthew 13:1-23", "The parable of the sower and the seed that falls on good soil."),
        R("Mark 4:35-41", "Jesus calms the storm and asks his disciples why they are afraid."),
        R(
            "Luke 10:25-37",
            "The Good Samaritan proves a neighbour to the man who fell among robbers.",
        ),
        R("Matthew 14:22-33", "Jesus walks on the water and catches Peter as he begins to sink."),
        R(
            "Luke 18:9-14",
            "The humble tax collector, not the self-righteous Pharisee, goes home justified.",
        ),
        R(
            "John 6:51-58",
            "Jesus is the living bread come down from heaven; whoever eats this "
            "bread will live for ever.",
        ),
    ),
}
