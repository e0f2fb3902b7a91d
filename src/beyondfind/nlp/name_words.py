"""Word lists about names that need no book: words that are never a name for ranking, and the
first and last words that make a name a place. Kept apart from :mod:`beyondfind.nlp.name_evidence`
(whose book-level patterns compile at import) so that a query, which only reads these lists, does
not pay for them."""

from __future__ import annotations

MONTHS = frozenset("january february march april may june july august september october november december "
                   "jan feb mar apr jun jul aug sep sept oct nov dec".split())
WEEKDAYS = frozenset("monday tuesday wednesday thursday friday saturday sunday".split())
CALENDAR_WORDS = MONTHS | WEEKDAYS   # never names, unless the book makes one a person (NameEvidence.calendar_person)
NATIONALITIES = frozenset("""english french german italian spanish dutch russian american irish scotch scottish
    welsh british indian chinese greek roman latin turkish swiss swedish danish polish austrian prussian
    portuguese egyptian arab arabian persian jewish christian catholic protestant englishman englishmen
    frenchman frenchmen englishwoman frenchwoman european asian african yankee
    cossack tartar tatar hungarian norwegian belgian mexican canadian japanese hindoo hindu
    parisian genoese maltese venetian florentine neapolitan milanese londoner muscovite creole creoles
    hindostanee hindustani sanskrit""".split())
# (not "Spaniard", "Jew", "Turk", "Corsican": "the Spaniard" is Injun Joe's disguise in Tom Sawyer,
# "the Jew" Fagin; War and Peace's "Cossack" ×75 was a person's row; a city's people, "a Parisian
# sensation", "a Genoese tartan": rows of Les Misérables ×17 and Monte Cristo ×10; languages such
# as Jane Eyre's "learn Hindostanee", a person ×7 of its list)
# peoples, orders and creeds whose singular may be a person's epithet ("the Spaniard", "the Jew")
# but whose plural is always a group ("the Turks", "the Huns", "the Carthusians"); see
# NameEvidence.group_plural
PEOPLES = frozenset("""turk swede dane gaul hun moor saxon spaniard corsican jew slav slovak papist buddhist
    mohammedan quaker methodist carthusian jesuit benedictine puritan lutheran calvinist apostle pharisee
    israelite philistine highlander islander""".split())
# followers of a party ("he was a Bonapartist", "a Royalist"): Monte Cristo ×13, Les Misérables ×10
PARTISANS = frozenset("bonapartist bonapartists royalist royalists jacobin jacobins girondin girondins "
                      "republican republicans tory tories whig whigs".split())
HOLIDAYS = frozenset("christmas easter michaelmas whitsuntide candlemas lent sabbath midsummer".split())
ADDRESS_WORDS = frozenset("""papa mamma mama mammy pa ma grandpapa grandmamma grandma grandpa granny nurse missis
    missus mis ma'am sir madam mister master miss mrs mr baby heaven god almighty lord providence fate nature fortune
    chapter volume book part letter journal diary alas hallo hullo amen lor jove gott mein dieu mon
    majesty ladyship lordship excellency highness sire mum mummy dad daddy lookee
    pardieu parbleu morbleu sacrebleu woe serene thou thee thy thine thyself ye esq hon
    signors signori messieurs senores señores herren""".split())
# ("the Almighty", "God Almighty": Dracula ×5, a person's row, then a place's once WordNet's
# instances left the nouns for beings; "Lor!", "By Jove!", "Mein Gott!", "Mon Dieu!", "Pardieu!",
# "Woe to him …!": oaths and cries, listed as persons in Oliver Twist and Dracula, Monte Cristo ×13
# and Les Misérables ×14; the prayers' "Thy will be done", War and Peace ×27, and "Your Serene
# Highness" ×31;
# "His Majesty", "her Ladyship", "yes, Mum": styles of address, rows in War and Peace ×68, Vanity Fair
# ×38, Great Expectations ×21, Alice ×12; "Lookee": Great Expectations' "look ye"; "Esq.", written
# after a name: Jane Eyre ×2, Vanity Fair ×3, and "the Hon.", before one: Dear Enemy's "the Hon. Cy
# Wykoff", a row "Hon" ×25, Dracula's "Hon. Arthur Holmwood" a place "Hon" ×4; "Mis'", the dialect's
# Mrs. or Miss, which the sentence splitter cuts from its name: The House Behind the Cedars' "Mis'
# Molly", a row "Mis" ×112); foreign honorifics in the plural, said to several people ("Ye are to
# know, Signors": The Mysteries of Udolpho ×19, the display name of Signor Bertolini's row;
# "Messieurs", The Scarlet Pimpernel's place ×3)
# dialect spellings of a verb and a pronoun that open a sentence: Tom Sawyer's "Lemme see" (×5, a
# person's row), "Gimme"; Moby Dick's sailors' "D’ye see" (×33 tagged PER); the apostrophe's "'Tis",
# "'Twas" left as a capitalised word (Far from the Madding Crowd's rustics: "Tis" ×47, a person's row)
CONTRACTIONS = frozenset("lemme gimme dunno gonna wanna gotta mebbe d'ye tis twas twill twould twere".split())
# French words a translated novel leaves in French, capitalised at a sentence or verse start: Les
# Misérables' songs ("Je n'ai qu'un Dieu", ×20 a person's row), Anna Karenina's "Mais…" (×5);
# accents folded like name keys ("voilà" → "voila")
FRENCH_WORDS = frozenset("je mais oui non voila tiens allons nous vous pourquoi quoi c'est n'est".split())
NEVER_NAMES = MONTHS | WEEKDAYS | HOLIDAYS | NATIONALITIES | PARTISANS | ADDRESS_WORDS | CONTRACTIONS | FRENCH_WORDS
# words of direction: WordNet places that a capitalised word names less often than it points a
# direction ("the South"), and never a person alone unless the book writes it as a surname ("Captain West")
COMPASS_WORDS = frozenset({"north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest",
                           "centre", "center", "midwest", "orient", "occident"})
# last words that make a name a place, building or institution ("Donwell Abbey", "Tellson's Bank")
PLACE_HEADS = frozenset({
    "abbey", "bank", "bar", "bridge", "castle", "chapel", "church", "city", "club", "college", "company",
    "cottage", "court", "farm", "grange", "hall", "heights", "hill", "hotel", "house", "inn", "island",
    "lane", "lodge", "manor", "mill", "office", "park", "prison", "rectory", "river", "road", "school", "close",
    "society", "square", "street", "tower", "town", "village",
    "asylum", "cathedral", "cliff", "cliffs", "crescent", "dock", "docks", "gardens", "harbour", "heath",
    "hospital", "market", "moor", "pier", "quay", "station", "terrace", "wharf", "basin",
    "yard",   # Bleak House's "Bell Yard" ×4, a person's row
})
# first words that make a name a place ("Castle Dracula", "Mount Vernon", "Lake Maggiore", "Rue du Helder")
PLACE_FIRST_WORDS = frozenset({
    "boulevard", "camp", "cape", "castle", "faubourg", "fort", "isle", "lake", "loch", "mont", "mount", "port", "rue",
    # French and Italian buildings and squares ("Hôtel de Londres", "Palais de Justice", "Place de Grève";
    # name keys fold accents, tokens keep them). Not "Château": Monte Cristo's NER tags "the Château"
    # of "the Château d’If", and grown to the name the entity kept only "d’If"
    "hotel", "hôtel", "palais", "palazzo", "place", "pont", "porte", "quai",
    # Italian villas, streets and squares: Udolpho's "Villa Miarenti" ×4 and Daisy Miller's "Via
    # Gregoriana" were persons' rows
    "villa", "via", "piazza",
})


def never_a_name(key: str, honorific: bool = False) -> bool:
    """Words that are never a person, place or organisation name for ranking (a holiday anywhere
    in it: "Merry Christmas", "Christmas Eve"). After an honorific a month or a weekday is a surname
    (``honorific``: the form is written with one; Little Women's "Mrs. March", "Aunt March")."""
    words = key.split()
    if not words or any(w.isdigit() or w in HOLIDAYS for w in words):
        return True
    if len(words) == 1:
        w = words[0]
        if honorific and (w in MONTHS or w in WEEKDAYS):
            return False
        return len(w) == 1 or w in NEVER_NAMES
    return all(w in NEVER_NAMES for w in words)
