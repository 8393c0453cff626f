"""Corpus, part two: papal and curial documents."""

from __future__ import annotations

from devtools.fake_magisterium.corpus_council import Document

_VA = "https://www.vatican.va/content/"
D = Document

PAPAL = (
    D(
        "12350",
        "Rerum Novarum",
        "Pope Leo XIII",
        "Encyclical on capital and labour, 15 May 1891",
        _VA + "leo-xiii/en/encyclicals/documents/hf_l-xiii_enc_15051891_rerum-novarum.html",
        (
            "labour",
            "labor",
            "workers",
            "wages",
            "property",
            "capital",
            "unions",
            "social",
            "justice",
            "socialism",
        ),
        "Rerum Novarum answered the hard conditions of industrial workers in the nineteenth "
        "century.\n\nLeo XIII defended private property against socialism while insisting on a "
        "just wage, the right of workers to form associations and the duty of the state to "
        "protect the weak. It is counted as the first great document of modern Catholic social "
        "teaching.",
    ),
    D(
        "12351",
        "Humanae Vitae",
        "Pope Paul VI",
        "Encyclical on the regulation of birth, 25 July 1968",
        _VA + "paul-vi/en/encyclicals/documents/hf_p-vi_enc_25071968_humanae-vitae.html",
        (
            "contraception",
            "marriage",
            "married",
            "birth",
            "sexuality",
            "parenthood",
            "family",
            "love",
        ),
        "Humanae Vitae describes married love as fully human, total, faithful, exclusive and "
        "fruitful.\n\nPaul VI taught that the unitive and procreative meanings of the conjugal act "
        "may not be separated, so that artificial contraception is excluded, while spouses may for "
        "serious reasons make use of the infertile periods.",
    ),
    D(
        "12352",
        "Evangelium Vitae",
        "Pope John Paul II",
        "Encyclical on the value and inviolability of human life, 25 March 1995",
        _VA + "john-paul-ii/en/encyclicals/documents/hf_jp-ii_enc_25031995_evangelium-vitae.html",
        (
            "life",
            "abortion",
            "euthanasia",
            "death penalty",
            "culture of life",
            "dignity",
            "killing",
        ),
        "Evangelium Vitae proclaims the Gospel of life against a spreading culture of death.\n\n"
        "John Paul II solemnly confirmed that the direct and voluntary killing of an innocent "
        "human being is always gravely immoral, naming abortion and euthanasia, and he called "
        "every believer to serve, love and defend human life at every stage.",
    ),
    D(
        "12353",
        "Veritatis Splendor",
        "Pope John Paul II",
        "Encyclical on fundamental questions of the Church's moral teaching, 6 August 1993",
        _VA + "john-paul-ii/en/encyclicals/documents/hf_jp-ii_enc_06081993_veritatis-splendor.html",
        (
            "morality",
            "moral",
            "truth",
            "conscience",
            "freedom",
            "natural law",
            "commandments",
            "intrinsically evil",
        ),
        "Veritatis Splendor begins with the rich young man's question to Jesus about what good he "
        "must do.\n\nIt teaches that freedom is fulfilled in truth, that conscience must be formed "
        "by the moral law, and that some acts are intrinsically evil whatever the intention or "
        "circumstances; the martyrs are the supreme witnesses to this.",
    ),
    D(
        "12354",
        "Fides et Ratio",
        "Pope John Paul II",
        "Encyclical on the relationship between faith and reason, 14 September 1998",
        _VA + "john-paul-ii/en/encyclicals/documents/hf_jp-ii_enc_14091998_fides-et-ratio.html",
        ("faith", "reason", "philosophy", "truth", "science", "aquinas"),
        "Fides et Ratio compares faith and reason to two wings by which the human spirit rises "
        "toward the truth.\n\nJohn Paul II defended the dignity of philosophy, proposed Saint "
        "Thomas Aquinas as a model of harmony between faith and reason, and warned against both "
        "fideism and a reason closed to God.",
    ),
    D(
        "12355",
        "Deus Caritas Est",
        "Pope Benedict XVI",
        "Encyclical on Christian love, 25 December 2005",
        _VA + "benedict-xvi/en/encyclicals/documents/hf_ben-xvi_enc_20051225_deus-caritas-est.html",
        ("love", "charity", "eros", "agape", "god is love", "caritas"),
        "Deus Caritas Est shows that desiring love (eros) and self-giving love (agape) are not "
        "opposed but find their unity in God, who is love.\n\nIts second part teaches that works "
        "of charity belong to the very nature of the Church, as much as proclaiming the word and "
        "celebrating the sacraments.",
    ),
    D(
        "12356",
        "Spe Salvi",
        "Pope Benedict XVI",
        "Encyclical on Christian hope, 30 November 2007",
        _VA + "benedict-xvi/en/encyclicals/documents/hf_ben-xvi_enc_20071130_spe-salvi.html",
        ("hope", "salvation", "eternal life", "judgment", "purgatory", "progress", "suffering"),
        "Spe Salvi reflects on the hope by which we are saved.\n\nBenedict XVI contrasts Christian "
        "hope with a faith in progress alone, and proposes prayer, action, suffering and the "
        "thought of God's judgment as settings in which hope is learned.",
    ),
    D(
        "12357",
        "Caritas in Veritate",
        "Pope Benedict XVI",
        "Encyclical on integral human development in charity and truth, 29 June 2009",
        _VA + "benedict-xvi/en/encyclicals/documents/"
        "hf_ben-xvi_enc_20090629_caritas-in-veritate.html",
        ("development", "economy", "globalization", "charity", "truth", "business", "social"),
        "Caritas in Veritate holds that charity joined to truth is the principal force behind "
        "authentic development.\n\nIt asks that the economy make room for gratuitousness and the "
        "logic of gift, and that globalization serve the whole person and every person.",
    ),
    D(
        "12358",
        "Evangelii Gaudium",
        "Pope Francis",
        "Apostolic Exhortation on the proclamation "
        "of the Gospel in today's world, 24 November 2013",
        _VA + "francesco/en/apost_exhortations/documents/"
        "papa-francesco_esortazione-ap_20131124_evangelii-gaudium.html",
        ("evangelization", "joy", "gospel", "mission", "poor", "preaching", "homily"),
        "Evangelii Gaudium invites every Christian to a renewed encounter with Jesus and to a "
        "missionary conversion of the whole Church.\n\nFrancis asks for a Church that goes out to "
        "the peripheries, gives practical advice on preaching, and places the poor at the centre "
        "of the Church's concern.",
    ),
    D(
        "12359",
        "Lumen Fidei",
        "Pope Francis",
        "Encyclical on faith, 29 June 2013",
        _VA
        + "francesco/en/encyclicals/documents/papa-francesco_20130629_enciclica-lumen-fidei.html",
        ("faith", "light", "belief", "truth", "love"),
        "Lumen Fidei, begun by Benedict XVI and completed by Francis, presents faith as a light "
        "that illumines the whole of human existence.\n\nFaith is received in the Church, "
        "transmitted through the sacraments and bears fruit in the common good.",
    ),
    D(
        "12360",
        "Laudato Si'",
        "Pope Francis",
        "Encyclical on care for our common home, 24 May 2015",
        _VA
        + "francesco/en/encyclicals/documents/papa-francesco_20150524_enciclica-laudato-si.html",
        (
            "ecology",
            "environment",
            "creation",
            "climate",
            "common home",
            "integral ecology",
            "poor",
        ),
        "Laudato Si' hears together the cry of the earth and the cry of the poor.\n\nFrancis "
        "proposes an integral ecology, criticises the technocratic paradigm and calls for an "
        "ecological conversion that changes lifestyles as well as policies.",
    ),
    D(
        "12361",
        "Amoris Laetitia",
        "Pope Francis",
        "Post-Synodal Apostolic Exhortation on love in the family, 19 March 2016",
        _VA + "francesco/en/apost_exhortations/documents/"
        "papa-francesco_esortazione-ap_20160319_amoris-laetitia.html",
        ("family", "marriage", "married", "love", "children", "accompaniment", "discernment"),
        "Amoris Laetitia gathers the work of two synods on the family.\n\nIt meditates on the "
        "hymn to love in First Corinthians, encourages the education of children, and asks "
        "pastors to accompany, discern and integrate families in difficult situations.",
    ),
    D(
        "12362",
        "Fratelli Tutti",
        "Pope Francis",
        "Encyclical on fraternity and social friendship, 3 October 2020",
        _VA + "francesco/en/encyclicals/documents/"
        "papa-francesco_20201003_enciclica-fratelli-tutti.html",
        ("fraternity", "friendship", "samaritan", "politics", "peace", "war", "dialogue"),
        "Fratelli Tutti proposes universal fraternity and social friendship.\n\nTaking the Good "
        "Samaritan as its guide, it calls for a better kind of politics, dialogue and "
        "forgiveness, and rejects war and the death penalty.",
    ),
    D(
        "12363",
        "Dignitas Infinita",
        "Dicastery for the Doctrine of the Faith",
        "Declaration on human dignity, 2 April 2024",
        "https://www.vatican.va/roman_curia/congregations/cfaith/documents/"
        "rc_ddf_doc_20240402_dignitas-infinita_en.html",
        (
            "dignity",
            "human dignity",
            "poverty",
            "war",
            "migrants",
            "trafficking",
            "abortion",
            "euthanasia",
            "gender",
        ),
        "Dignitas Infinita affirms that every human person possesses an infinite dignity that "
        "no circumstance can take away.\n\nIt lists grave violations of that dignity, among them "
        "extreme poverty, war, the mistreatment of migrants, human trafficking, abortion, "
        "surrogacy, euthanasia and the discarding of people with disabilities.",
    ),
    D(
        "12364",
        "Ecclesia de Eucharistia",
        "Pope John Paul II",
        "Encyclical on the Eucharist in its relationship to the Church, 17 April 2003",
        _VA + "john-paul-ii/en/encyclicals/documents/hf_jp-ii_enc_20030417_eccl-de-euch.html",
        ("eucharist", "mass", "real presence", "sacrifice", "communion", "adoration", "church"),
        "Ecclesia de Eucharistia teaches that the Church draws her life from the Eucharist.\n\n"
        "John Paul II recalls the sacrificial character of the Mass, the real presence of Christ "
        "and the bond between the Eucharist and ecclesial communion, and encourages adoration "
        "outside Mass.",
    ),
    D(
        "12365",
        "Redemptoris Mater",
        "Pope John Paul II",
        "Encyclical on the Blessed Virgin Mary in the life of the pilgrim Church, 25 March 1987",
        _VA + "john-paul-ii/en/encyclicals/documents/hf_jp-ii_enc_25031987_redemptoris-mater.html",
        ("mary", "mother", "virgin", "marian", "pilgrim", "faith"),
        "Redemptoris Mater presents Mary as the one who went before the Church on the pilgrimage "
        "of faith.\n\nIt reflects on her maternal mediation, wholly subordinate to Christ, and on "
        "her place in the life of every Christian.",
    ),
    D(
        "12366",
        "Munificentissimus Deus",
        "Pope Pius XII",
        "Apostolic Constitution defining the dogma of the Assumption, 1 November 1950",
        _VA + "pius-xii/en/apost_constitutions/documents/"
        "hf_p-xii_apc_19501101_munificentissimus-deus.html",
        ("assumption", "mary", "dogma", "virgin", "glory"),
        "Munificentissimus Deus solemnly defines that the Immaculate Mother of God, the ever-"
        "virgin Mary, having completed the course of her earthly life, was assumed body and soul "
        "into heavenly glory.",
    ),
    D(
        "12367",
        "Familiaris Consortio",
        "Pope John Paul II",
        "Apostolic Exhortation on the role of "
        "the Christian family in the modern world, 22 November 1981",
        _VA + "john-paul-ii/en/apost_exhortations/documents/"
        "hf_jp-ii_exh_19811122_familiaris-consortio.html",
        ("family", "marriage", "married", "children", "domestic church"),
        "Familiaris Consortio sets out the tasks of the Christian family: forming a community of "
        "persons, serving life, sharing in the development of society and in the mission of the "
        "Church.\n\nIt calls the family a domestic church.",
    ),
)
