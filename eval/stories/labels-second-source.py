#!/usr/bin/env python3
"""Hand-made story labels for the second labelled set: the batches the clustering rules were never tuned on.

  python3 eval/stories/labels-second-source.py   # writes the labels-<batch>.json of each file below

- data/gkg/20160101020000.gkg.csv.gz: the first 10 records of the 2016-01-01 02:00 batch (no page titles in 2016;
  read from the URLs and entity fields).
- data/gkg/bq-extract-20200222_sample.csv.gz: 199 records from five batches of 2020-02-22, filtered by its author
  on coronavirus words (BigQuery CSV export), 65 of them translingual.
- data/gkg/spark-gdelt-test_gkg.csv.gz and ..._gkgT.translation.csv.gz: 100 records each, half 2015-02-18 (no page
  titles), half 2020-03-18; the second file translingual.

Written by reading titles, URLs and (where needed) V2Persons / V2Organizations / V2Locations, before the
clusterer was ever run on these files; the rules are those of LABELLING.md. Ids are full GKGRECORDIDs.
"""
import importlib.util, json, os

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("first", os.path.join(HERE, "labels-source.py"))
first = importlib.util.module_from_spec(_spec); _spec.loader.exec_module(first)

G, L = first.G, first.L  # G: a labelled group, one uncertain entry per member; L: ungrouped records, all in each

D = "20200222"
def r(batch, n): return f"{D}{batch}-{n}"

# ------------------------------------------------------------------------------------------------ 2020-02-22
SCOTLAND = [r("013000", 130), r("013000", 2011)]
HISTORY = [r("221500", 965), r("221500", 1132), r("180000", 1104)]
FLU = [r("221500", 646), r("221500", 959)]
DEVILS = [r("221500", 1146), r("221500", 1115)]
CLARKSON = [r("221500", 732), r("221500", 1062)]
WILLIAM = [r("221500", 474), r("221500", 1069)]
NEVADA_AP = [r("221500", 941), r("221500", 637)]
ASSANGE = [r("214500", "T16"), r("214500", "T30")]
ERDOGAN = [r("214500", "T272"), r("221500", 852)]
FRIENDS = [r("013000", 333), r("013000", 647), r("180000", 688)]
RELAY = [r("214500", "T240"), r("214500", "T887")]
BABY = [r("221500", 322), r("221500", 1117)]
CIMSIR = [r("214500", "T799"), r("214500", "T784")]

GROUPS_2020 = [
("Scotland makes the new coronavirus a notifiable disease (PA via Newsquest)", "syndicated", SCOTLAND,
 "times-series.co.uk and wimbledonguardian.co.uk, the same Newsquest article id 18253883."),
("School history lesson compares Trump to Nazis and communists", "same-event", HISTORY,
 "Two iHeart stations (710wor, 1061fmtalk: one outlet, two URLs with the same path) and SFGate's AP copy; the iHeart "
 "headline adds 'High' and 'President'."),
("Student called 911 and died from flu after police could not find him (iHeart stations)", "syndicated", FLU,
 "One outlet (iheart.com), two stations (945wfla, theriver1059), the same path: a syndicated copy, not boilerplate."),
("Devils beat Capitals, Ovechkin scores his 700th goal (Big News Network)", "syndicated", DEVILS,
 "newjerseytelegraph.com and bignewsnetwork.com, the same Big News Network article id 264107195."),
("Jeremy Clarkson opens his farm shop (PA via Newsquest)", "syndicated", CLARKSON,
 "worcesternews and tivysideadvertiser, the same Newsquest article id 18254937."),
("Prince William at the Six Nations match in Cardiff (PA via Newsquest)", "syndicated", WILLIAM,
 "redditchadvertiser and tivysideadvertiser, the same Newsquest article id 18254966."),
("Nevada Democratic caucuses: voting under way (AP)", "syndicated", NEVADA_AP,
 "NBC Miami and Newsmax carry the same AP headline. The other Nevada pages are live pages, a guide, entrance polls "
 "or pre-caucus campaigning: see the uncertain entries and the singletons in LABELLING-second.md."),
("Julian Assange's supporters march in London against his extradition", "same-event", ASSANGE,
 "RFI and Europe 1 (French), independent reports of the same demonstration on 22 February."),
("Erdogan announces a summit on Syria with Russia, France and Germany", "same-event", ERDOGAN,
 "ABC Color (Spanish, translated by GDELT) and Big News Network (English): one announcement, translated headline."),
("Friends cast reunion special on HBO announced; celebrities react", "same-event", FRIENDS,
 "Just Jared's gallery 'Celebs React to Friends Reunion News' (two photo pages of one gallery: one outlet, two URLs) "
 "and the Courier-Mail's report of the announcement, whose URL is 'friends-fans-go-crazy-at-reunion-news-with-"
 "hilarious-memes-and-tweets'. Reactions in the same news cycle whose headline subject is the announcement."),
("Biathlon World Championships 2020 (Antholz): men's relay result", "same-event", RELAY,
 "mig.com.ua (Russian: 'results of the men's relay and tomorrow's mass-start line-ups') and zivotpo.sk (Slovak: "
 "'French biathletes won the relay, Slovaks 17th'); both translated by GDELT, both 22 February."),
("Missing six-month-old found dead in a Charlotte cemetery after the mother's arrest", "same-event", BABY,
 "iHeart and The Epoch Times; both name Tamara Jernel Brown, North Carolina."),
("Trabzonspor coach Hüseyin Çimşir after the Beşiktaş match", "same-event", CIMSIR,
 "f5haber ('nobody gives us points') and star.com.tr (his remarks on Sörloth): one person's statement on one occasion, "
 "the post-match press conference. Medium confidence: the star.com.tr page could be a separate interview."),
]

UNCERTAIN_2020 = [
([L(r("221500", 1106), r("221500", 839), r("221500", 381)), G(*NEVADA_AP)],
 "Nevada caucus day: 1106 is a live page titled with its latest entry ('Sanders wins Nevada's most valuable "
 "precinct'), 839 the Reuters entrance-poll finding (Medicare for All), 381 a radio station's live-coverage page. "
 "All are about the caucus voting on 22 February, but each headline reports a different part of it."),
([L(r("013000", 347), r("221500", 1009))],
 "Russian interference: Sanders warns Russia to stay out of the election (21 Feb) and Trump's tweet warning Democrat "
 "voters (22 Feb). One saga, two statements by different people."),
([L(r("214500", "T786"), r("214500", "T733"), r("214500", "T744")), G(*CIMSIR)],
 "Turkish football, 22 February: Sörloth (Trabzonspor) and Karius (Beşiktaş) after the match, and Beşiktaş coach "
 "Sergen Yalçın on Ljajic (16:35, probably before it). Statements by different people around one match, like "
 "in-race sub-stories; the fotospor entity lists are the site's sidebar, identical on all three pages."),
([L(r("180000", 692), r("180000", 906))],
 "Abhishek Manu Singhvi on 22 February: the Amulya sedition case and the Congress leadership. Possibly one interview, "
 "two different statements."),
([L(r("011500", "T926"), r("011500", "T1307"))],
 "Italian outbreak on 21 February: 'ten new cases' (Euronews Greek via multi-news, located Lombardy) and 'Italy "
 "records its first death' (Astro Awani, Malay). Same outbreak and day, different developments."),
([L(r("011500", "T559"), r("214500", "T347"))],
 "Wilder vs Fury II (fought 22 February, Las Vegas): UNIAN (01:15 batch)'s where-to-watch guide and El Nuevo Día's preview. "
 "Neither reports the fight's result."),
([L(r("013000", 140), r("221500", 167))],
 "Afghanistan: the US-Taliban truce takes effect (22 Feb) and Pakistan's foreign minister says it has done its job "
 "for the peace deal. Reaction or a separate statement."),
]

# ------------------------------------------------------------------------------------------------ 2016-01-01
# The ten records are ten different stories (gold prices, a robbery in Auburn NY, Clemson reaching the title game,
# a hotel lawsuit in Arizona, New Year's Eve alerts, fluoride standards, ...): no group, no uncertain pair.

# ---------------------------------------------------------------------- 2015-02-18 and 2020-03-18 (aamend/spark-gdelt)
# Two files, each half 2015-02-18 (no page titles: read from the URLs) and half 2020-03-18 (titles).
def e(n): return f"20150218230000-{n}"
def e20(n): return f"20200318104500-{n}"
def t(n): return f"20150218224500-T{n}"
def t20(n): return f"20200318103000-T{n}"

BIDEN = [e20(1639), e20(1647)]
GROUPS_SPARK = [
("Biden wins the Florida, Illinois and Arizona primaries (17 March 2020)", "same-event", BIDEN,
 "Rejoice 102 and MSNBC's Morning Joe clip."),
]
UNCERTAIN_SPARK = [
([L(e20(1627)), G(*BIDEN)],
 "Reuters: 'After big wins, Biden makes appeal to young Sanders voters' - his statement on the night of the wins; the "
 "headline's event is the appeal, not the results."),
]

ISRAEL = [t(9), t(1)]
NIGER = [t(19), t(20)]
TECH_DATA = [t20(22), t20(17)]
KITS = [t20(1592), t20(1587)]
GROUPS_SPARK_T = [
("US says Israel leaks inaccurate information on the Iran nuclear talks (18 Feb 2015)", "same-event", ISRAEL,
 "ČTK (ceskenoviny.cz) and Aktuálně.cz, Czech; no page titles in 2015, the URL slugs are the same sentence."),
("Niger: village bombed, three days of national mourning and an inquiry (18 Feb 2015)", "same-event", NIGER,
 "Le Populaire du Centre and Romandie (AFP), French; URL slugs; both name Abadam, Diffa."),
("Coronavirus: Google, Facebook and Apple asked to help with location data (18 Mar 2020)", "same-event", TECH_DATA,
 "RTL Belgium and L'Avenir, French, different headlines on one report."),
("Two more countries import Vietnam's Covid-19 test kits (18 Mar 2020)", "syndicated", KITS,
 "VOV's article and Báo Mới's copy of it, Vietnamese."),
]
UNCERTAIN_SPARK_T = [
([L(t(12), t(11), t(6))],
 "18 Feb 2015, US markets and the Fed: Kurzy.cz 'how America traded', Patria 'US markets consolidated, the Fed's "
 "dovish minutes did not help' and Patria on the Fed minutes themselves. One trading day, and the minutes it "
 "reacted to."),
([L(t(222), t(224))],
 "baomoi.com, one URL for twelve records (see below): these two carry about as many words (660, 630), the same "
 "organisation and the same themes, so they may be one article crawled twice. Added after the first run, on reading "
 "the records' word counts and themes."),
([L(t(227), t(228))],
 "baomoi.com, one URL: 422 and 409 words, identical themes, no names - possibly one article crawled twice. Added after "
 "the first run, on reading the records' word counts and themes."),
([L(t20(5), t20(18))],
 "French lockdown: two download pages for the travel certificate (Journal du Net, Le Parisien). Service pages, "
 "not reports of an event."),
]
# Kept apart on purpose:
# - baomoi.com 20150218224500-T219 ... T230: twelve records share one URL ('khan-gia-truyen-hinh-that-vong-ve-tao-quan-
#   2015', viewers disappointed by the Tao Quan 2015 show), but their lengths and entities are twelve different
#   articles (Thai hotels, the National Assembly, the Party, the South China Sea...). Like the Gold Coast Bulletin
#   paywall pages of the 2023 set, a shared page label at one outlet is not one story: singletons, except two pairs
#   that may each be one article crawled twice (uncertain above).
# - one outlet, several events: maroc.ma's three donations to the Covid-19 fund (T3, T4, T8), ČTK's three Ukraine
#   items (Kerry-Lavrov call, Debaltseve losses, Poroshenko's peacekeepers), liberte-algerie's three world items
#   sharing the suffix ': Toute l'actualité sur liberte-algerie', RTL's Le Maire and Blanquer items.

SETS = [
    ("20160101020000", "data/gkg/20160101020000.gkg.csv.gz", 10, [], []),
    (D, "data/gkg/bq-extract-20200222_sample.csv.gz", 199, GROUPS_2020, UNCERTAIN_2020),
    ("20150218-20200318", "data/gkg/spark-gdelt-test_gkg.csv.gz", 100, GROUPS_SPARK, UNCERTAIN_SPARK),
    ("20150218-20200318-translingual", "data/gkg/spark-gdelt-test_gkgT.translation.csv.gz", 100, GROUPS_SPARK_T,
     UNCERTAIN_SPARK_T),
]

def main():
    here = HERE
    for name, file, records, groups, uncertain in SETS:
        g, u = first.build(groups, uncertain, lambda i: i)
        path = os.path.join(here, f"labels-{name}.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"file": file, "records": records, "groups": g, "uncertain": u}, f, ensure_ascii=False, indent=1)
            f.write("\n")
        print(f"wrote {path}: {len(g)} groups, {sum(len(x['ids']) for x in g)} records in groups, {len(u)} uncertain entries")

if __name__ == "__main__":
    main()
