#!/usr/bin/env python3
"""Writes data/broken/: one tiny dataset per diagnostic code of the loader and model.

Each case folder holds `case.pcc`, the files it lists, and `expect.txt` with one line
`CODE FILE LINE COLUMN` naming where that diagnostic must be reported (FILE relative to
data/). The position is found here from a marker text in the file, independently of the
checker. Run from the repository root: `python3 data/broken/make_broken.py`.
"""
import os, shutil

ROOT = "data/broken"
BASE_DC = """DEFAULTVARIABLEVALUE:NUMBER|0
DEFAULTVARIABLEVALUE:BOOLEAN|false
DEFAULTVARIABLEVALUE:STRING|
DEFAULTVARIABLEVALUE:ORDEREDPAIR|0,0
DEFAULTVARIABLEVALUE:DICE|0
DEFAULTVARIABLEVALUE:HANDED|Right
FUNCTION:d20Mod\tVALUE:floor((arg(0)-10)/2)
DYNAMICSCOPE:MOVEMENT
FACTDEF:TEMPLATE|Origin\tDATAFORMAT:STRING
"""
BASE_VAR = """GLOBAL:NUMBER=Hands
GLOBAL:ORDEREDPAIR=Face
LOCAL:PC.EQUIPMENT|NUMBER=HandsRequired
LOCAL:PC.EQUIPMENT.PART|NUMBER=CritMult
LOCAL:PC.EQUIPMENT.PART|DICE=Damage
LOCAL:PC.STAT|NUMBER=Score
LOCAL:PC.MOVEMENT|NUMBER=Speed
CHANNEL:PC.STAT|NUMBER=StatScore
"""
BASE_TABLE = """STARTTABLE:Encumbrance
Str,Light
NUMBER,NUMBER
10,33
ENDTABLE:Encumbrance
"""

def pcc(name, lines, mode="Handsworld", base=True):
    head = [f"CAMPAIGN:Broken {name}", f"KEY:Broken {name}"]
    if mode:
        head.append(f"GAMEMODE:{mode}")
    if base:
        head += ["DATACONTROL:../_base/base__datacontrols.lst",
                 "DATATABLE:../_base/base__datatables.lst",
                 "VARIABLE:../_base/base__variables.lst",
                 "DYNAMIC:../_base/base__dynamic.lst",
                 "GLOBALMODIFIER:../_base/base__globalmodifiers.lst"]
    return "\n".join(head + lines) + "\n"

# code: (name, {file: text}, pcc lines, (file, marker), options)
CASES = []
def case(code, name, files, lines, at, **opt):
    CASES.append((code, (name, files, lines, at, opt)))

T = "\t"
case("L0101", "not-utf8", {"eq.lst": b"Club" + b"\t" + b"PART:1|MODIFY:Damage|SET|1d6\nClub of \x92Doom\tPART:1|MODIFY:Damage|SET|1d8\n"},
     ["EQUIPMENT:eq.lst"], ("eq.lst", "\u2019"))
case("L0102", "file-not-found", {}, ["EQUIPMENT:missing_equipment.lst"], ("case.pcc", "missing_equipment.lst"))
case("L0104", "unknown-game-mode", {}, [], ("case.pcc", "Handworld"), mode="Handworld")
case("L0105", "missing-campaign", {}, ["PRECAMPAIGN:1,INCLUDES=Book Of Nothing"], ("case.pcc", "PRECAMPAIGN:1,INCLUDES=Book Of Nothing"))
case("L0106", "campaign-added", {}, ["PRECAMPAIGN:1,INCLUDES=Handsworld Core"], ("case.pcc", "PRECAMPAIGN:1,INCLUDES=Handsworld Core"))
case("L0107", "include-cycle", {"inner.pcc": "CAMPAIGN:Inner\nPCC:case.pcc\n"}, ["PCC:inner.pcc"], ("inner.pcc", "case.pcc"))
case("L0108", "mixed-game-modes", {"other.pcc": "CAMPAIGN:Otherworld Book\nGAMEMODE:Otherworld\n"},
     ["PRECAMPAIGN:1,INCLUDES=Otherworld Book"], ("other.pcc", "Otherworld\n"))
case("L0109", "suffix-not-allowed", {"vars.lst": "GLOBAL:NUMBER=Arms\n"}, ["VARIABLE:vars.lst|(INCLUDE:Arms)"], ("case.pcc", "(INCLUDE:Arms)"))
# 101 PCC files deep: case.pcc -> chain/c001.pcc -> ... -> chain/c100.pcc; c099's include of c100 is refused.
case("L0113", "include-too-deep",
     {**{f"chain/c{i:03d}.pcc": f"CAMPAIGN:Chain {i:03d}\nPCC:c{i + 1:03d}.pcc\n" for i in range(1, 100)},
      "chain/c100.pcc": "CAMPAIGN:Chain 100\n"},
     ["PCC:chain/c001.pcc"], ("chain/c099.pcc", "c100.pcc"))
case("L0110", "campaign-conflict", {}, ["PRECAMPAIGN:1,INCLUDES=Handsworld Core", "!PRECAMPAIGN:1,BOOKTYPE=Core Rules"],
     ("case.pcc", "!PRECAMPAIGN:1,BOOKTYPE=Core Rules"))
case("L0111", "bad-path", {}, ["EQUIPMENT:http://example.com/equipment.lst"], ("case.pcc", "http://example.com/equipment.lst"))
case("L0112", "no-game-mode", {}, [], ("case.pcc", None), mode=None)

case("T0101", "malformed-token", {"gm.lst": "MODIFY:Hands|SET\n"}, ["GLOBALMODIFIER:gm.lst"], ("gm.lst", "Hands|SET"))
case("T0102", "unexpected-token", {"vars.lst": "GLOBAL:NUMBER=Arms\nDEFINE:Legs|2\n"}, ["VARIABLE:vars.lst"], ("vars.lst", "DEFINE:Legs|2"))
case("T0103", "bad-priority", {"gm.lst": "MODIFY:Hands|ADD|1|PRIORITY=high\n"}, ["GLOBALMODIFIER:gm.lst"], ("gm.lst", "high"))
case("T0104", "bad-association", {"gm.lst": "MODIFY:Hands|ADD|1|STACK=yes\n"}, ["GLOBALMODIFIER:gm.lst"], ("gm.lst", "STACK"))
case("T0105", "bad-name", {"vars.lst": "GLOBAL:NUMBER=Bonus.Race\n"}, ["VARIABLE:vars.lst"], ("vars.lst", "Bonus.Race"))
case("T0106", "tab-in-global-modifier", {"gm.lst": "MODIFY:Hands|ADD|1\tMODIFY:Hands|ADD|2\n"}, ["GLOBALMODIFIER:gm.lst"], ("gm.lst", "MODIFY:Hands|ADD|1"))
case("T0107", "bad-table", {"tables.lst": "STARTTABLE:Costs\nLevel,Price\nNUMBER,NUMBER\n1,10\n"}, ["DATATABLE:tables.lst"], ("tables.lst", "STARTTABLE:Costs"))
case("T0108", "bad-part", {"eq.lst": "Club\tPART:0|MODIFY:Damage|SET|1d6\n"}, ["EQUIPMENT:eq.lst"], ("eq.lst", "0|"))
case("T0109", "bad-grouping", {"feats.lst": "Cleave\tMODIFYOTHER:PC.EQUIPMENT|ALL[ALL][ALL]|CritMult|ADD|1\n"}, ["ABILITY:feats.lst"], ("feats.lst", "[ALL]|"))

case("M0101", "unknown-scope", {"vars.lst": "LOCAL:PC.WEAPON|NUMBER=Reach\n"}, ["VARIABLE:vars.lst"], ("vars.lst", "PC.WEAPON"))
case("M0102", "unknown-format", {"vars.lst": "GLOBAL:AREA=Space\n"}, ["VARIABLE:vars.lst"], ("vars.lst", "AREA"))
case("M0103", "format-conflict", {"vars.lst": "GLOBAL:BOOLEAN=Hands\n"}, ["VARIABLE:vars.lst"], ("vars.lst", "Hands"))
case("M0104", "variable-overlap", {"vars.lst": "LOCAL:PC.EQUIPMENT|NUMBER=Hands\n"}, ["VARIABLE:vars.lst"], ("vars.lst", "Hands"))
case("M0105", "default-conflict", {"dc.lst": "DEFAULTVARIABLEVALUE:NUMBER|1\n"}, ["DATACONTROL:dc.lst"], ("dc.lst", "1"))
case("M0106", "missing-default", {"vars.lst": "GLOBAL:SKILL=FavouriteSkill\n"}, ["VARIABLE:vars.lst"], ("vars.lst", "SKILL"))
case("M0107", "unknown-variable", {"feats.lst": "MyAbility\tMODIFYOTHER:PC.EQUIPMENT|ALL|CritMult|ADD|1\n"}, ["ABILITY:feats.lst"], ("feats.lst", "CritMult"))
case("M0108", "illegal-modifier", {"gm.lst": "MODIFY:Face|ADD|1,1\n"}, ["GLOBALMODIFIER:gm.lst"], ("gm.lst", "ADD"))
case("M0109", "dice-arithmetic", {"eq.lst": "Club\tPART:1|MODIFY:Damage|ADD|1d6\n"}, ["EQUIPMENT:eq.lst"], ("eq.lst", "ADD"))
case("M0110", "bad-literal", {"gm.lst": "MODIFY:Face|SET|5\n"}, ["GLOBALMODIFIER:gm.lst"], ("gm.lst", "5"))
case("M0110", "bad-fact-value", {"tpl.lst": "Orcish\tFACT:Origin|x\nSturdy\tFACT:Sturdy|often\n",
                                   "dc.lst": "FACTDEF:TEMPLATE|Sturdy\tDATAFORMAT:BOOLEAN\n"},
     ["DATACONTROL:dc.lst", "TEMPLATE:tpl.lst"], ("tpl.lst", "often"))
case("M0110", "bad-table-cell", {"tables.lst": "STARTTABLE:Costs\nLevel,Price\nNUMBER,NUMBER\n1,10\n2,ten\nENDTABLE:Costs\n"},
     ["DATATABLE:tables.lst"], ("tables.lst", "ten"))
case("M0110", "missing-table-cell", {"tables.lst": "STARTTABLE:Costs\nLevel,Price\nNUMBER,NUMBER\n1,10\n25\nENDTABLE:Costs\n"},
     ["DATATABLE:tables.lst"], ("tables.lst", "25"))
case("M0111", "unknown-fact", {"tpl.lst": "Orcish\tFACT:IsOrc|True\n"}, ["TEMPLATE:tpl.lst"], ("tpl.lst", "IsOrc"))
case("M0112", "scope-alias", {"vars.lst": "LOCAL:EQUIPMENT|NUMBER=Weight\n"}, ["VARIABLE:vars.lst"], ("vars.lst", "EQUIPMENT"))
case("M0113", "pcgen-divergence", {"eq.lst": "Club\tPART:1|MODIFY:Hands|ADD|1\n"}, ["EQUIPMENT:eq.lst"], ("eq.lst", "Hands"))
case("M0114", "face-disabled", {"tpl.lst": "Huge\tFACE:15,15\n"}, ["TEMPLATE:tpl.lst"], ("tpl.lst", "FACE:15,15"), mode="Otherworld")
case("M0115", "unknown-object", {"feats.lst": "Mastery\tMODIFYOTHER:PC.EQUIPMENT|Bastrd Sword|HandsRequired|ADD|-1\n",
                                  "eq.lst": "Bastard Sword\tMODIFY:HandsRequired|SET|2\n"},
     ["ABILITY:feats.lst", "EQUIPMENT:eq.lst"], ("feats.lst", "Bastrd Sword"))
case("M0116", "duplicate-function", {"dc.lst": "FUNCTION:input\tVALUE:arg(0)\n"}, ["DATACONTROL:dc.lst"], ("dc.lst", "input"))
case("M0117", "unknown-category", {"dyn.lst": "SENSES:Sight\n"}, ["DYNAMIC:dyn.lst"], ("dyn.lst", "SENSES"))
case("M0118", "global-modifyother", {"gm.lst": "MODIFYOTHER:PC|ALL|Hands|ADD|1\n"}, ["GLOBALMODIFIER:gm.lst"], ("gm.lst", "PC|"))
case("M0119", "no-subscope", {"feats.lst": "Tough\tMODIFYOTHER:PC.STAT|ALL[ALL]|Score|ADD|1\n"}, ["ABILITY:feats.lst"], ("feats.lst", "ALL]"))
case("M0120", "unused-variable", {"vars.lst": "GLOBAL:NUMBER=Forgotten\n"}, ["VARIABLE:vars.lst"], ("vars.lst", "Forgotten"))
case("M0121", "bad-fact-location", {"dc.lst": "FACTDEF:WEAPON|Heavy\tDATAFORMAT:BOOLEAN\n"}, ["DATACONTROL:dc.lst"], ("dc.lst", "WEAPON"))
case("M0122", "duplicate-table", {"tables.lst": BASE_TABLE.replace("Encumbrance", "Encumbrance", 2)}, ["DATATABLE:tables.lst"], ("tables.lst", "STARTTABLE:Encumbrance"))
case("M0123", "required-default", {"dc.lst": "DEFAULTVARIABLEVALUE:NUMBER|0\nDEFAULTVARIABLEVALUE:DICE|0\nDEFAULTVARIABLEVALUE:HANDED|Right\n",
                                   "vars.lst": "GLOBAL:NUMBER=Hands\n"},
     ["DATACONTROL:dc.lst", "VARIABLE:vars.lst"], ("case.pcc", "dc.lst"), base=False)
case("M0124", "modifier-case", {"gm.lst": "MODIFY:Hands|set|2\n"}, ["GLOBALMODIFIER:gm.lst"], ("gm.lst", "set"))
case("M0125", "unknown-channel", {"stats.lst": "Strength\tMODIFY:Score|SET|input(\"StatScor\")\n"}, ["STAT:stats.lst"], ("stats.lst", "\"StatScor\""))
case("M0126", "unknown-table", {"gm.lst": "MODIFY:Hands|SET|lookup(\"Encumbrence\",10,\"Light\")\n"}, ["GLOBALMODIFIER:gm.lst"], ("gm.lst", "\"Encumbrence\""))
case("M0127", "unknown-column", {"gm.lst": "MODIFY:Hands|SET|lookup(\"Encumbrance\",10,\"Heavy\")\n"}, ["GLOBALMODIFIER:gm.lst"], ("gm.lst", "\"Heavy\""))
case("M0128", "host-arguments", {"stats.lst": "Strength\tMODIFY:Score|SET|input(Score+1)\n"}, ["STAT:stats.lst"], ("stats.lst", "Score+1"))

def position(text, marker):
    if marker is None:
        return 1, 1
    i = text.index(marker)
    line = text.count("\n", 0, i) + 1
    col = i - (text.rfind("\n", 0, i) + 1) + 1
    return line, col

# Remove the generated case folders (this script lives in ROOT too and stays).
for entry in os.listdir(ROOT) if os.path.isdir(ROOT) else []:
    if os.path.isdir(f"{ROOT}/{entry}"):
        shutil.rmtree(f"{ROOT}/{entry}")
os.makedirs(f"{ROOT}/_base")
for f, t in [("base__datacontrols.lst", BASE_DC), ("base__variables.lst", BASE_VAR), ("base__datatables.lst", BASE_TABLE),
             ("base__dynamic.lst", "MOVEMENT:Walk\n"), ("base__globalmodifiers.lst", "MODIFY:Hands|SET|2\nMODIFY:Face|SET|5,5\nMODIFYOTHER:PC.EQUIPMENT|ALL|HandsRequired|SET|1\n")]:
    open(f"{ROOT}/_base/{f}", "w").write(t)
# the base variables are all used, so no unused-variable note comes from the base
open(f"{ROOT}/_base/base__globalmodifiers.lst", "a").write(
    "MODIFYOTHER:PC.EQUIPMENT|ALL[ALL]|CritMult|SET|2\nMODIFYOTHER:PC.EQUIPMENT|ALL[ALL]|Damage|SET|1d4\n"
    "MODIFYOTHER:PC.STAT|ALL|Score|SET|input(\"StatScore\")\nMODIFYOTHER:PC.MOVEMENT|ALL|Speed|SET|30\n")
for code, (name, files, lines, (efile, marker), opt) in CASES:
    d = f"{ROOT}/{code}-{name}"
    os.makedirs(d)
    text_pcc = pcc(name, lines, mode=opt.get("mode", "Handsworld"), base=opt.get("base", True))
    open(f"{d}/case.pcc", "w").write(text_pcc)
    for f, t in files.items():
        os.makedirs(os.path.dirname(f"{d}/{f}"), exist_ok=True)
        open(f"{d}/{f}", "wb" if isinstance(t, bytes) else "w").write(t)
    if efile == "case.pcc":
        text = text_pcc
    else:
        raw = files[efile]
        text = raw.decode("cp1252") if isinstance(raw, bytes) else raw
    line, col = position(text, marker)
    open(f"{d}/expect.txt", "w").write(f"{code} broken/{code}-{name}/{efile} {line} {col}\n")
print(len(CASES), "cases")
