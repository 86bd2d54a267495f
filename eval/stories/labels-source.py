#!/usr/bin/env python3
"""Hand-made story labels for data/gkg/20230702153000.gkg.csv.gz, written as Python so that the
notes can sit next to the ids. Running it writes labels-20230702153000.json (ids are expanded
from the short record numbers N to the full GKGRECORDID "20230702153000-N").

  python3 eval/stories/labels-source.py            # writes eval/stories/labels-20230702153000.json

Every judgement here was made by a person reading titles, URLs and (where needed) the V2Persons /
V2Organizations / V2Locations fields; see LABELLING.md for the rules.
"""
import json, os

BATCH = "20230702153000"

# (label, kind, [record numbers], note)
GROUPS = [
# ---------------------------------------------------------------- same-event (different headlines)
("Baltimore Brooklyn Homes block-party mass shooting (2 dead, 28 wounded), 2 July 2023", "same-event",
 [4, 95, 181, 340, 365, 609, 691, 704, 760, 809, 946,   # AP, full headline
  837, 116,                                            # AP earlier headline (kwtx URL = 'baltimore-police-confirm-officers-are-scene'), The Hill
  191, 507, 569, 591,                                  # NPR via member stations
  82, 409, 950, 10, 894, 383,                          # KHOU, Forbes, KOCO, WBAL, WSJ, Street Journal
  0, 336, 574,                                         # PA copy 'Hunt for suspects after shooting at street party leaves two dead'
  404],                                                # Gold Coast Bulletin, paywall title
 "AP copies (11 identical titles + 2 earlier AP headline versions), NPR copies (4) and independent reports "
 "(KHOU, Forbes, KOCO, WBAL 'Brooklyn neighborhood', WSJ, The Street Journal). The PA copies 'Hunt for suspects after "
 "shooting at street party leaves two dead' do not name the city in the title; V2Persons (Richard Worley, Brandon Scott, "
 "Lakell Nelson) confirm Baltimore. 404's page title is the Gold Coast Bulletin paywall text; its URL slug is "
 "'mass-shooting-in-us-city-of-baltimore-leaves-at-least-two-dead-28-wounded'."),

("France riots over the police killing of Nahel M.: 5th night of unrest (night of 1-2 July) and next-day reactions", "same-event",
 [100, 681, 881, 300, 775,   # AP (three identical, stripes/al.com headline variants)
  260, 870, 683, 467, 280,   # NY Sun, Brisbane Times (Reuters), CNA, 12News, News On AIR
  548, 127],                 # DW live blog 'Do not riot, grandmother says', Reuters 'Scholz watching with concern'
 "All report the state of the riots after the fifth night (arrest counts, easing violence) or same-day reactions to them. "
 "280's title says unrest spread to Belgium/Switzerland but its URL slug is 'france-riots-nearly-700-arrested-across-country-"
 "on-5th-night'. 548 is DW's live page for that day (title = latest entry, the grandmother's appeal). 127 (Scholz) is a "
 "reaction and 683's own headline carries the same Scholz remark. The attack on the L'Hay-les-Roses mayor's home is kept "
 "as a separate group (a distinct incident); the cross pairs are listed as uncertain."),

("Rioters ram a burning car into the home of L'Hay-les-Roses mayor Vincent Jeanbrun", "same-event",
 [281, 641, 624, 579],
 "Sky News copies (281, 641 identical), CBC Barbados (CNN copy, 'Mayor's home set on fire') and Epoch Times "
 "('French mayor alleges rioters tried to assassinate him'). Same incident during the 5th night; see uncertain entry "
 "linking it to the overall riots group."),

("White House announces Biden's trip to the UK, NATO summit in Vilnius and Finland (9-13 July)", "same-event",
 [527, 610, 678, 711, 821, 900,   # PA 'Joe Biden to meet King and PM during July visit to UK'
  45, 209,                        # RFE/RL, Reuters (US News)
  385, 701],                      # AP 'Biden's (upcoming) European trip is meant to boost NATO ...'
 "One announcement (2 July) reported by PA, Reuters, RFE/RL and AP. The AP piece is a trip preview/analysis whose news "
 "peg is the announcement, so it is included (rule: same event reported, even if framed as analysis). 297 (NY Sun, "
 "'Biden's mixed messaging on Ukraine') is opinion without the trip and is left out."),

("Death of actress Meg Johnson (Emmerdale, Coronation Street), aged 86", "same-event",
 [471, 602, 720, 849, 695, 232, 275, 321],
 "PA copies 'Soap opera stalwart Meg Johnson dies aged 86' (4), Westmorland Gazette own headline, Sky copies (232, 275) "
 "and The Guardian."),

("Ashes, Lord's Long Room incident: MCC apologises, Australia seeks probe", "same-event",
 [2, 693, 811, 892, 239],
 "PA copies 'MCC apologise after members verbally abused players' and IANS/prokerala 'Australia seek probe into verbal "
 "abuse, physical contact incidents in Lord's Long Room' - both are responses to the same Day-5 incident, reported the "
 "same afternoon."),

("RTE payments scandal: PAC chairman Brian Stanley's remarks of 2 July", "same-event",
 [34, 345, 398, 807, 906, 331],
 "PA copies 'RTE witnesses may appear before parliamentary committee over summer - chairman' and Irish Times 'PAC "
 "chairman tells RTE to cop on and hand over all the documents'; both quote Brian Stanley (V2Persons) on the same day. "
 "The Irish Times URL also mentions a cabinet review, but its headline is the Stanley remark."),

("Ajit Pawar splits the NCP and is sworn in as Maharashtra deputy CM (2 July); same-day reactions and analysis", "same-event",
 [108, 354, 644,        # ANI: Atishi 'BJP's washing machine in action'
  183, 703,             # ANI: Jairam Ramesh 'washing machine resumed'
  661, 630,             # The Hindu / FE: Congress reactions
  150, 563, 476, 481,   # Ajit Pawar's statements, '40+ MLAs back Ajit' (PTI Hindi)
  392,                  # Mehbooba Mufti
  358, 740, 302, 480,   # Sharad Pawar's response (English + PTI Hindi)
  916, 410, 505,        # IANS 'NCP bombed, but cool Sharad Pawar' (prokerala + IANS twice)
  836, 722, 146,        # IANS 'MVA ravaged by 3rd surgical strike' (prokerala + IANS twice)
  526,                  # FE 'What next for NCP?'
  820],                 # The Hindu: Sharad Pawar camp names Awhad LoP; '36 of 53 MLAs with Ajit'
 "Every headline names Ajit Pawar's move / the NCP split as the news; they are statements, reactions and analysis of "
 "that one event on the same day (rule: reactions and analysis whose subject is the event belong to it). PTI Hindi "
 "titles (302, 476, 480, 481) translated: 'action against those who joined the Shinde government against the party "
 "line: Sharad Pawar'; 'joined the Shinde government for development, no split in NCP: Ajit Pawar'; 'Praful Patel, "
 "Sunil Tatkare took the wrong path: Sharad Pawar'; 'more than 40 NCP MLAs support Ajit Pawar: sources'. 820 (Sharad "
 "Pawar's camp names Jitendra Awhad Leader of the Opposition, '36 of 53 MLAs with Ajit Pawar') is the camp's same-evening "
 "response and is included. Left out as separate events: 658 (PTI Hindi, 'Maharashtra Congress calls its MLAs to a "
 "meeting on Tuesday' - no NCP/Ajit in the headline), 185 (Modi's council-of-ministers meeting amid reshuffle talk) and "
 "744 (The Hindu's daily digest, whose URL leads with Ajit Pawar but which covers several stories)."),

("Twitter: Elon Musk limits how many posts users can read per day", "same-event",
 [876, 449, 103], "Musk's 1 July announcement, three outlets, three headlines."),

("Russia's first drone strike on Kyiv in 12 days; all drones shot down", "same-event",
 [551, 593, 225, 303], "AP copies (551, 593) plus Financial Express and Outlook India reports of the same night attack."),

("Israeli strikes on Syria; Syrian air-defence missile explodes over northern Israel (2 July)", "same-event",
 [362, 287, 522], "AP headline in two word orders (362, 287) and Monitor (Uganda) 'Israeli air strikes hit targets in Syria'."),

("Hunter Biden case: US Attorney David Weiss denies retaliating against IRS whistleblower (letter to House Judiciary)", "same-event",
 [7, 564, 16], "AP (newstimes), Washington Times and NYT (via dnyuz) on the same letter; shared persons Weiss, Shapley, Jordan."),

("Moms for Liberty's nationwide school-board strategy (AP)", "same-event",
 [75, 349, 545, 852, 76, 87],
 "One AP story under two headline versions: 'Parental rights group Moms for Liberty plans nationwide strategy ...' "
 "(76, 87) and 'Moms for Liberty's focus on school races nationwide sets up political clash ...' (75, 349, 545, 852); "
 "75's URL still carries the first headline. Kind is same-event only because the headlines differ."),

("Wichita, Kansas nightclub shooting: 7 shot, 2 trampled", "same-event",
 [163, 640, 835, 213], "AP in two headline versions plus Outlook India; shared persons (Mayor Brandon Whipple, Aaron Moses)."),

("Austrian Grand Prix result: Verstappen wins, Leclerc second", "same-event",
 [843, 717, 381], "AP (TSN, Springfield News-Sun) and PlanetF1 race reports. In-race sub-stories (Wolff radio message, "
 "Russell on Hamilton) are uncertain; preview/streaming and contract features are singletons."),

("West Indies fail to qualify for the 2023 Cricket World Cup: player reactions", "same-event",
 [53, 501], "Holder and Brathwaite reacting to the same result (loss to Scotland, 1 July), same outlet, same day."),

("PCB asks Pakistan government for clearance to play the World Cup in India", "same-event",
 [818, 776], "Pakistan Today and Asia Bulletin on the same PCB letter."),

("Zulu King Misuzulu's health: suspected poisoning reported, entourage denies he is ill", "same-event",
 [123, 623, 572, 568],
 "RFI (twice, two sections) and The Street Journal copy, plus Saudi Gazette 'treated for suspected poisoning - aide'. "
 "Contradicting statements about the same development (king taken to hospital in Eswatini), shared persons "
 "(Buthelezi, Douglas Xaba)."),

("M6 milk tanker crash closes motorway", "same-event", [391, 781, 31], "Sky copies and Mirror."),

("Dutch King Willem-Alexander apologises for the Netherlands' role in slavery (Keti Koti, 1 July)", "same-event",
 [314, 827, 156], "Repeating Islands (Guardian text), Asia Bulletin twice (CNN copy and 'European king apologizes for slavery')."),

("Colombian air force planes collide mid-air at Apiay", "same-event",
 [310, 328], "Caribbean Herald and Mirror; V2Locations both Apiay, Meta."),

("US flight disruptions ease despite 5G worries (AP)", "same-event",
 [577, 921], "Same AP story, edited headline."),

("Australian home prices rise for a 4th month in June (CoreLogic)", "same-event",
 [155, 530, 557], "Reuters copies (155, 530) and Bloomberg on the same CoreLogic release."),

("Australia's Resources and Energy Quarterly: record commodity export earnings set to fall", "same-event",
 [429, 416, 167, 224],
 "Reuters, Brisbane Times, AFR and The Australian (224: paywall page title, URL slug 'gas-and-coal-exports-set-to-plunge') "
 "on the Industry Department's quarterly forecast."),

("UPS and Teamsters agree to end the two-tier wage system (Bloomberg)", "same-event",
 [559, 669], "Same Bloomberg story; 669's URL slug equals 559's headline."),

("Liverpool complete the signing of Dominik Szoboszlai", "same-event",
 [550, 932], "Club announcement and DW report. The club's 'shirt number revealed' page is uncertain."),

("Trump's campaign rally in Pickens, South Carolina (1 July)", "same-event",
 [267, 390, 437], "AP (KWTX), USA Today (Lindsey Graham booed), Detroit Free Press (masthead page title; URL slug "
 "'trump-in-sc-former-president-vows-retaliation-against-biden-democrats-pickens-rally')."),

("AP feature: how US presidents have spent July Fourth", "same-event",
 [206, 874], "Same AP feature under two headlines; 206's URL slug is 874's headline."),

("Ogun State church attack: gunmen kill RCCG pastor and abduct worshippers", "same-event",
 [689, 115], "Same outlet, two articles 5 minutes apart; identical V2Persons."),

("Balochistan (Sherani/Zhob) attack kills four police / security personnel (2 July)", "same-event",
 [439, 788], "Reuters (Street Journal) and IANS: same day, same province, same toll. Moderate confidence."),

("Rahul Gandhi's Telangana Jana Garjana rally at Khammam (2 July)", "same-event",
 [12, 536, 99], "IANS via prokerala (two angles of the rally) and PTI Hindi 99 ('KCR's remote control is with Modi: Rahul Gandhi')."),

("OIC meeting in Jeddah urges action against Koran desecration", "same-event",
 [690, 473], "Reuters (GMA) and Frontier Post on the same OIC meeting."),

("'Ashadha Purnima' to be celebrated at the National Museum on Monday (PTI English and Hindi)", "same-event",
 [841, 702], "Same PTI story in English (ThePrint) and Hindi (PTI Bhasha)."),

("Death of Caleb Willingham, husband of '1000-Lb Sisters' star Tammy Slaton", "same-event",
 [700, 594], "Two explainer pieces by The Statesman, same timestamp, both prompted by his death."),

("Boston hit-and-run seriously injures motorcyclist (Massachusetts State Police)", "same-event",
 [462, 608], "Boston Herald and WWLP on the same State Police release."),

# ---------------------------------------------------------------- syndicated (same/near-same headline)
("RTE payments: Government not seeking 'revenge' - TD", "syndicated", [566, 604, 889, 926], "PA copy."),
("ASLEF overtime ban: disruption expected as train drivers refuse to work overtime", "syndicated", [211, 586, 646, 734, 737, 782], "PA copy."),
("Push to remove caps on uni places for Indigenous people", "syndicated", [18, 307, 343, 560, 647, 764, 816], "ACM network copy, same story id 8255259."),
("Australia appoints first special envoy for the Pacific", "syndicated", [301, 325], "ACM network copy."),
("AFL: Lyon a disappointed 'father' as Saints scrape by Eagles", "syndicated", [114, 580], "ACM network copy."),
("Despite promises, attorneys scarce as US resumes speedy asylum screenings (AP)", "syndicated", [607, 718, 751, 808, 882], "AP copy."),
("US explores refugee program for non-Mexican asylum seekers in Mexico", "syndicated", [612, 792], "Reuters copy."),
("NASCAR Cup drivers praise setting for first Chicago street race", "syndicated", [173, 382, 935], "AP copy."),
("Ailing Thai elephant Muthu Raja returns home from Sri Lanka (AP)", "syndicated", [914, 376], "AP copy; one headline drops the elephant's name."),
("United Airlines CEO took a private plane while passengers were stranded", "syndicated", [475, 709], "Hearst TV copy (CNN)."),
("NPR: affirmative action divided Asian Americans and other people of color", "syndicated", [219, 395, 541, 655], "NPR member stations."),
("NPR: a step-by-step guide to finding a therapist", "syndicated", [308, 408, 520], "NPR member stations."),
("Kourtney Kardashian and Travis Barker reveal their baby's sex", "syndicated", [25, 305, 653, 685, 719], "Same article on five radio-station sites."),
("Madonna postpones tour, Ryan Seacrest lands 'Wheel of Fortune' (AP entertainment week roundup)", "syndicated", [227, 259, 289, 558, 659], "Lee Enterprises copies of one AP roundup."),
("Margot Robbie's body double reveals secrets from Barbie set", "syndicated", [57, 338, 400, 672, 813, 860], "Same entertainment-wire article on several small newspaper sites."),
("Pete Davidson: ferry boat bought with Colin Jost a 'lifelong problem'", "syndicated", [14, 368, 556, 801, 806], "Same entertainment-wire article on several small newspaper sites."),
("Robert Englund: Freddy Krueger deserves to be among horror icons", "syndicated", [249, 263, 342, 769], "Same entertainment-wire article on several small newspaper sites."),
("Leonardo DiCaprio and Jeff Bezos donate $200m to help save the Amazon", "syndicated", [276, 348, 635, 834], "Same entertainment-wire article on several small newspaper sites."),
("Bruce Springsteen knew 'Born In The USA' would be a hit", "syndicated", [243, 532], "Same entertainment-wire article on several small newspaper sites."),
("Stay independent of allergies, asthma this July Fourth (health feature)", "syndicated", [8, 118, 138, 460, 733, 787, 859, 901], "Same syndicated health feature on several newspaper sites."),
("Why do we celebrate the Fourth of July with fireworks?", "syndicated", [549, 886], "TEGNA copy, same article id."),
("Rain postpones Portsmouth, NH Independence Day fireworks", "syndicated", [20, 274], "Townsquare copy."),
("Highest-rated museums in Illinois, according to TripAdvisor", "syndicated", [13, 442], "Townsquare copy."),
("Why are people in Michigan so unattractive?", "syndicated", [28, 729], "Townsquare copy."),
("Grand Rapids gets over $90M in state funding for fire station, parks", "syndicated", [66, 137], "Townsquare copy."),
("'Hungry' Djokovic fired up for more Grand Slam glory at Wimbledon", "syndicated", [46, 252], "Big News Network copy."),
("Feature: how a China-Africa trade expo is boosting business (Xinhua)", "syndicated", [148, 521], "Xinhua copy."),
("Rays' Randy Arozarena making himself comfortable in Seattle", "syndicated", [244, 433], "Big News Network copy."),
("US Midwest struggles under drought, rains expected soon", "syndicated", [251, 344], "Big News Network copy."),
("Prison term for ex-Vietnam coast guard chief for embezzlement", "syndicated", [293, 688], "Big News Network copy."),
("The story of 1970s band Max Webster told in new book", "syndicated", [207, 458], "Postmedia copy."),
("Heavy rain expected Sunday in the Sarnia area", "syndicated", [334, 418], "Postmedia copy (one title carries the outlet suffix)."),
("Conference aims to encourage more women to run for office", "syndicated", [402, 931], "Postmedia copy."),
("Markdale's Robertson to be inducted into Canadian Ag Hall of Fame", "syndicated", [441, 448], "Postmedia copy."),
("'CCC candidate absconded community service'", "syndicated", [346, 446], "Zimbabwe Mail and Bulawayo24 (one title carries the outlet suffix)."),
("UK police have new expanded powers to crack down on protests", "syndicated", [339, 817], "Same outlet, same wire story at two URLs."),
("Swapna Liddle's new book on the forgotten history of Delhi", "syndicated", [648, 828], "IANS, same story in two sections (TopStory, NATION)."),
("'Healthy Living - July 2nd' radio segment", "syndicated", [524, 601], "Same Nine Radio segment on 4BC and 3AW."),
("Supermoons and meteor showers visible in July (Gannett)", "syndicated", [510, 357],
 "Identical Gannett URL path (.../supermoons-meteor-showers-visible-in-north-state-skies-in-july/70373776007/); both page "
 "titles are just the masthead (The Stockton Record, Siskiyou Daily News), so only the URL shows the copy."),
]

# Uncertain relations. Each is (blocks, note). A block is either a list of ids that form one labelled
# group (written G(...)) or a list of loose ids (L(...)) whose mutual pairs are also uncertain.
# They are expanded into "uncertain" entries that never contain two ids of the same group: one entry
# per combination of one member from each G-block, plus all ids of the L-blocks. So "every pair of ids
# inside an uncertain entry is excluded from scoring" never removes a positive pair.
def G(*ids): return ("G", list(ids))
def L(*ids): return ("L", list(ids))

FRANCE = G(100, 681, 881, 300, 775, 260, 870, 683, 467, 280, 548, 127)
MAYOR = G(281, 641, 624, 579)
RTE_STANLEY = G(34, 345, 398, 807, 906, 331)
RTE_TD = G(566, 604, 889, 926)

UNCERTAIN = [
([L(96), FRANCE, MAYOR],
 "France riots: the attack on the L'Hay-les-Roses mayor's home (281/641/624/579) happened during the 5th night and is "
 "mentioned in several overall riot reports (870's URL, Jeanbrun in 467/260/300 persons), but it is a distinct incident "
 "with its own headlines, so riots-vs-mayor pairs are uncertain. 96 is an AP photo page titled only 'France Police "
 "Shooting' (14:47 UTC 2 July), almost certainly a riot photo but the caption is not in the record."),
([L(599), FRANCE],
 "599 is an analysis of French policing prompted by Nahel's killing, not a report of the riots themselves."),
([RTE_STANLEY, RTE_TD],
 "RTE payments saga: two different same-day statements (PAC chairman Stanley vs. a government TD) - same saga, "
 "probably different events."),
([L(949, 528)],
 "Manipur: 949 leads with Kuki groups reopening the national highway and adds 'three killed in fresh violence'; 528 is "
 "the killing of 3 village defence volunteers. Probably the same killings, but 949's main event differs."),
([L(758, 332)],
 "IBPS recruitment: 758 is the IBPS Clerk 2023 notification; 332 says registration opens for '4,800 posts' - possibly the "
 "same notification, vacancy figures do not match."),
([L(246), G(559, 669)],
 "UPS/Teamsters: 246 reports UPS's offer and a Teamsters deadline (an earlier step); 559/669 report the agreement on "
 "two-tier pay."),
([L(856), G(155, 530, 557)],
 "856 (Brisbane Times, URL dated 29 June) on interest rates slowing home-value growth - may use the same CoreLogic data, "
 "cannot confirm."),
([L(266), G(429, 416, 167, 224)],
 "266 is a Gold Coast Bulletin paywall page; its URL slug 'why-australia-is-expected-to-earn-less-from-lithium-as-demand-"
 "for-evs-soars' fits the Resources and Energy Quarterly forecast but could be a separate analysis."),
([L(406), G(267, 390, 437)],
 "Christie 'living rent-free' in Trump's head after Trump poked fun at him - possibly at the Pickens rally, not confirmed."),
([L(379, 664)],
 "Wisconsin elections administrator fight: AP background piece vs. WISN interview with a commissioner; same dispute, "
 "different occasions."),
([L(622, 222)],
 "Russia cancels air show (UK intelligence) vs. Sky live-blog headline 'Russia cancels major event over security "
 "concerns'; live blogs mix many items."),
([L(190), G(46, 252)],
 "Djokovic before Wimbledon: Big News Network piece and AP preview; both draw on his pre-tournament press conference, "
 "but they are previews, not one event report."),
([L(117), G(577, 921)],
 "US holiday air travel: Daily Mail '1k flights delayed' vs. AP 'disruptions ease' - same travel weekend, different facts."),
([L(736), G(690, 473)],
 "JUI-F (Pakistan) wants ties with Sweden cut - a separate reaction to the same Koran burning the OIC meeting addressed."),
([L(930), G(550, 932)],
 "Liverpool's 'Szoboszlai shirt number revealed' page, published with the signing announcement."),
([L(29, 789)],
 "Longview: the 'PHOTOS: Former Longview mayors' gallery probably accompanies the mayors' interview article; not news."),
([L(352, 590), G(843, 717, 381)],
 "Austrian GP sub-stories: Wolff's radio message to Hamilton during the race; Russell says Hamilton is 'still struggling'."),
([L(597, 304)],
 "Bulawayo24: 'CCC stands for Convention for Confused Cockroaches' and the column 'Human beings are not cockroaches' - "
 "the column may answer that remark; text not available."),
([L(122, 109), G(219, 395, 541, 655)],
 "US Supreme Court affirmative-action ruling (29 June): 122 reports the ruling and Biden's reaction three days late; NPR "
 "(219 ...) analyses divisions over affirmative action; 109 is Charles Barkley's donation after the ruling. Same ruling "
 "in the background, different news in each."),
([L(174, 198, 221, 341, 487, 631, 753, 785)],
 "goskagit.com business-directory pages 'Christianson's Nursery & Greenhouse' (8 different listing ids): same title, not "
 "news; neither a story nor clearly distinct."),
([L(503, 506)], "carsonnow.org 'Events Calendar': the same page with and without www; not a news story."),
([L(399, 857)], "'Andrea Muraskin': NPR author profile page at two member stations; not a news story."),
]

def expand(blocks):
    """One entry per choice of one member from every G-block; L-blocks are included whole."""
    entries = [[]]
    for kind, ids in blocks:
        if kind == "L":
            entries = [e + ids for e in entries]
        else:
            entries = [e + [i] for e in entries for i in ids]
    return entries

def full(n):
    return f"{BATCH}-{n}"

def build(groups, uncertain, full):
    """Validates hand-written groups and uncertain relations and returns them as JSON-ready lists, ids made `full`.
    Also used by labels-second-source.py."""
    seen = {}
    out_groups = []
    for label, kind, ids, note in groups:
        assert kind in ("syndicated", "same-event"), label
        assert len(ids) >= 2, label
        for i in ids:
            assert i not in seen, f"{i} in '{label}' and '{seen[i]}'"
            seen[i] = label
        out_groups.append({"label": label, "kind": kind, "ids": [full(i) for i in ids], "note": note})
    group_of = {i: k for k, (_, _, ids, _) in enumerate(groups) for i in ids}
    out_uncertain = []
    for blocks, note in uncertain:
        for kind, ids in blocks:  # G-blocks must be exactly a labelled group; L ids must be ungrouped
            if kind == "G":
                assert sorted(ids) == sorted(groups[group_of[ids[0]]][2]), (ids, note)
            else:
                assert not any(i in group_of for i in ids), (ids, note)
        for ids in expand(blocks):
            assert len(ids) == len(set(ids)) >= 2, note
            gs = [group_of[i] for i in ids if i in group_of]
            assert len(gs) == len(set(gs)), ("two ids of one group in an uncertain entry", ids)
            out_uncertain.append({"ids": [full(i) for i in ids], "note": note})
    return out_groups, out_uncertain

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    groups, uncertain = build(GROUPS, UNCERTAIN, full)
    out = {"file": f"data/gkg/{BATCH}.gkg.csv.gz", "records": 951, "groups": groups, "uncertain": uncertain}
    path = os.path.join(here, f"labels-{BATCH}.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=1)
        f.write("\n")
    seen = sum(len(g["ids"]) for g in groups)
    print(f"wrote {path}: {len(groups)} groups, {seen} records in groups, {len(uncertain)} uncertain entries")

if __name__ == "__main__":
    main()
