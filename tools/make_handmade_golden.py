#!/usr/bin/env python3
"""Writes crates/mcr/tests/golden/handmade.jsonl: hands whose fans were worked out by hand
from S4 and SPEC (each with its fan points, so the total is their sum).

    python3 tools/make_handmade_golden.py > crates/mcr/tests/golden/handmade.jsonl
"""
import json
E = [
 ("[234m1][678p1]34567sEE5s", "seat=S wind=S", "seeds", [(43,1,8)], "Chicken Hand: chows of no pattern, honour pair, 5s also 2s/8s wait (no Single/Edge), melded"),
 ("[234m1][678p1]34567sEE5s", "seat=S wind=S flowers=3", "seeds", [(43,1,8),(81,3,1)], "Chicken Hand with flowers: flowers do not stop Chicken Hand (S4 #43, #81)"),
 ("[EEE1][SSS2][WWW3]NNN1m1m", "seat=S wind=E", "seeds", [(1,1,88),(18,1,32),(49,1,6),(79,1,1)], "Big Four Winds implies Big Three Winds, Little Four Winds, All Pungs, Seat and Prevalent Wind, Pung of Terminals or Honours (S4 #01); every tile a terminal or honour: All Terminals and Honours (implying Outside Hand); single wait on 1m"),
 ("19m19s19pESWNCFP1m", "self seat=E wind=E", "seeds", [(7,1,88),(56,1,4)], "Thirteen Orphans self-drawn: Fully Concealed may be added (S4 #07)"),
 ("19m19s19pESWNCFP1m", "self seat=E wind=E", "reference", [(7,1,88),(80,1,1)], "Thirteen Orphans self-drawn: the reference adds Self-Drawn instead"),
 ("1122m3344p5566sEE", "seat=S wind=S", "seeds", [(19,1,24)], "Seven Pairs implies Concealed Hand and Single Wait (S4 #19)"),
 ("1111m3344p5566sEE", "self seat=S wind=S", "seeds", [(19,1,24),(64,1,2),(56,1,4)], "Seven Pairs with two pairs of 1m: Tile Hog (S4 #19); self-drawn: Fully Concealed"),
 ("1111m3344p5566sEE", "self seat=S wind=S", "reference", [(19,1,24),(64,1,2),(80,1,1)], "The same hand under the reference: Self-Drawn"),
 ("2222334488sFFFF", "seat=E wind=E", "seeds", [(3,1,88),(19,1,24),(49,1,6)], "All Green seven pairs: with Half Flush, no Tile Hog (S4 #03)"),
 ("2222334488sFFFF", "seat=E wind=E", "reference", [(3,1,88),(19,1,24),(64,2,2)], "The reference: All Green excludes Half Flush, and scores both Tile Hogs"),
 ("[123m1][123m1]123p789s5p5p", "seat=E wind=E", "seeds", [(63,1,2),(69,1,1),(70,1,1),(79,1,1)], "Non-identical and once-only principles: 123m 123m is a Pure Double Chow; 123p may join only once, so one Mixed Double Chow, not two"),
 ("[EEE1]123m456p789s5s5s", "seat=E wind=S", "seeds", [(39,1,8),(61,1,2),(73,1,1),(79,1,1)], "Seat wind pung also scores Pung of Terminals or Honours (S4 #73)"),
 ("[EEE1]123m456p789s5s5s", "seat=E wind=S", "reference", [(39,1,8),(61,1,2),(79,1,1)], "The reference does not add Pung of Terminals or Honours to a seat-wind pung"),
 ("1112345678999m5m", "seat=E wind=E", "seeds", [(4,1,88),(66,1,2)], "Nine Gates won on 5m: 111 234 55 678 999; Two Concealed Pungs; no Pung of Terminals or Honours (S4 #04)"),
 ("1112345678999m5m", "seat=E wind=E", "reference", [(4,1,88),(66,1,2),(73,1,1)], "The reference removes only one of the two terminal pungs"),
 ("1112345678999m1m", "self seat=E wind=E", "seeds", [(4,1,88),(28,1,16),(64,1,2),(56,1,4)], "Nine Gates self-drawn on 1m: 111 123 456 789 99 - Pure Straight and Tile Hog; Fully Concealed (S4 #04)"),
 ("1112345678999m1m", "self seat=E wind=E", "reference", [(4,1,88),(28,1,16),(64,1,2),(80,1,1)], "The reference: Self-Drawn"),
 ("111m222p333s444sEE", "self seat=S wind=S", "seeds", [(12,1,64),(42,1,8),(56,1,4),(73,1,1),(79,1,1)], "Four Concealed Pungs with Fully Concealed (S4 #12); 111m 222p 333s Mixed Shifted Pungs; single wait on E"),
 ("111m222p333s444sEE", "self seat=S wind=S", "reference", [(12,1,64),(42,1,8),(80,1,1),(73,1,1),(79,1,1)], "The reference: Four Concealed Pungs with Self-Drawn"),
 ("[1111m][5555p]123s456s7s7s", "seat=E wind=E", "seeds", [(53,1,8),(62,1,2),(71,1,1),(73,1,1),(76,1,1)], "Two Concealed Kongs worth 8 (S4 #48), implying Two Concealed Pungs and Concealed Kong; 123s456s7s also waits on 4s (44 + 567s), so no Single Wait"),
 ("[1111m][5555p]123s456s7s7s", "seat=E wind=E", "reference", [(53,1,6),(62,1,2),(71,1,1),(73,1,1),(76,1,1)], "Two Concealed Kongs worth 6 (1998 rules)"),
 ("[1111m][5555p1]123s456s7s7s", "seat=E wind=E", "seeds", [(82,1,6),(71,1,1),(73,1,1),(76,1,1)], "One concealed and one melded kong: 6 points (S4 note under #57)"),
 ("[1111m][5555p1]123s456s7s7s", "seat=E wind=E", "reference", [(82,1,5),(71,1,1),(73,1,1),(76,1,1)], "The reference's fan 82 is worth 5"),
 ("[123m1][456p1]789s12sEE3s", "kong fourth seat=S wind=S", "seeds", [(47,1,8),(39,1,8),(70,1,1),(77,1,1)], "Robbing the Kong implies Last Tile (S4 #47); edge wait 12s+3s; Mixed Straight, 123s joins 123m once"),
 ("[1111m]234p567s8sEEE8s", "self kong last seat=S wind=N", "seeds", [(44,1,8),(46,1,8),(56,1,4),(67,1,2),(66,1,2),(73,2,1)], "A replacement tile after the last-tile point: Last Tile Draw and Out with Replacement Tile (rules §3.11); both imply Self-Drawn; 567s8s waits on 5s and 8s, so no Single Wait"),
 ("[123m1][456p1][789s1][EEE2]FF", "seat=S wind=S", "seeds", [(52,1,6),(39,1,8),(73,1,1),(51,1,6)], "Melded Hand implies Single Wait (S4 #53); All Types"),
 ("11247m258s369pEE3m", "seat=S wind=S", "seeds", [(35,1,12),(62,1,2)], "Knitted Straight never takes Edge Wait (S4 #35)"),
 ("11247m258s369pEE3m", "seat=S wind=S", "reference", [(35,1,12),(62,1,2),(77,1,1)], "The reference gives the edge wait of the extra chow 12m+3m"),
 ("147m25s36pESWNCFP", "self seat=E wind=E", "seeds", [(20,1,24),(56,1,4)], "Greater Honours and Knitted Tiles self-drawn: Fully Concealed (S4 #20)"),
 ("147m258s369pESWNC", "seat=E wind=E", "seeds", [(34,1,12),(35,1,12)], "Lesser Honours and Knitted Tiles with the whole knitted straight: both fans (S4 #34)"),
 ("2233445566778p8p", "seat=E wind=E", "seeds", [(6,1,88),(68,1,2)], "Seven Shifted Pairs 2-8: implies Seven Pairs, Full Flush, Concealed Hand, Single Wait; All Simples counts"),
 ("2233445566778p8p", "self seat=E wind=E", "seeds", [(6,1,88),(68,1,2),(56,1,4)], "Seven Shifted Pairs self-drawn: Fully Concealed (S4 #06)"),
 ("[EEE1][SSS1]23m55mWWW4m", "seat=N wind=N", "seeds", [(38,1,12),(49,1,6)], "Big Three Winds: its wind pungs are not also Pungs of Terminals or Honours (implied)"),
 ("[EEE1][SSS1]23m55mWWW4m", "seat=E wind=E", "seeds", [(38,1,12),(49,1,6),(60,1,2),(61,1,2)], "Big Three Winds with Seat and Prevalent Wind (East)"),
 ("[111m1][111p1]999m999s1s1s", "seat=E wind=E", "seeds", [(8,1,64),(65,2,2),(66,1,2),(79,1,1)], "All Terminals may be combined with Double Pung (S4 #08): 111m-111p and 999m-999s"),
 ("[111m1][111p1]999m999s1s1s", "seat=E wind=E", "reference", [(8,1,64),(66,1,2),(79,1,1)], "The reference drops Double Pung with All Terminals"),
 ("[1111m1][2222p2][3333s3][4444s1]EE", "seat=S wind=S", "seeds", [(5,1,88),(42,1,8),(52,1,6),(73,1,1)], "Four Kongs implies All Pungs, Three Kongs, the kong fans and Single Wait; Melded Hand (all claimed)"),
 ("[EEE1][CCC2]SSSFFFPP", "seat=E wind=S", "seeds", [(10,1,64),(11,1,64),(60,1,2),(61,1,2),(66,1,2),(79,1,1)], "All Honours implies All Pungs and Pung of Terminals or Honours (S4 #11); Seat and Prevalent Wind may be added; Little Three Dragons implies the dragon pungs"),
 ("[123m1][789p1]111s999sNN", "seat=E wind=E", "seeds", [(55,1,4),(66,1,2),(73,2,1),(79,1,1)], "Outside Hand, two terminal pungs, Two Concealed Pungs"),
]
for hand, flags, rules, fans, note in E:
    total = sum(c*p for _, c, p in fans)
    print(json.dumps({"hand": hand, "flags": flags, "rules": rules,
        "fans": sorted([no, c] for no, c, _ in fans), "total": total,
        "source": "worked out by hand from S4 and SPEC", "note": note}, ensure_ascii=False, separators=(",", ":")))
