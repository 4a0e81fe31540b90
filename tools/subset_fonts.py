#!/usr/bin/env python3
"""Make the fallback fonts ``render/common.py`` draws people's names with, and their coverage table.

DejaVu Sans (the board font) lacks CJK, emoji and several scripts, so names are drawn character by
character with the first font of this chain that has the glyph (see ``draw_name`` in render/common.py):

    DejaVu Sans  ->  Noto Sans CJK JP  ->  Noto Emoji  ->  Noto Sans Thai  ->  Noto Sans Devanagari  ->
    Noto Sans Bengali, Tamil, Gujarati, Sinhala, Myanmar, Khmer, Ethiopic  ->  Noto Sans (letters with marks)

This script writes into render/fonts/ (all committed; the runtime needs neither fontTools nor the sources):

* the subset fonts listed in ``SUBSETS`` below and a licence file per family (the copyright notices in the
  fonts, then the licence text as the source ships it);
* ``coverage.json``: for every font in render/fonts, the code points its cmap maps to a real glyph (a
  compressed bitmap, 12 KB in all) and the sha256 of the font file, so the runtime knows exactly which
  font has which character without reading cmap tables. Rerun the script whenever a font file changes.

Sources (sha256 checked; other versions are refused unless ``--any-version``):

* Noto Sans CJK JP 2.004, Regular and Bold: face 0 of NotoSansCJK-{Regular,Bold}.ttc from Debian 12's
  ``fonts-noto-cjk`` 1:20220127+repack1-1 (/usr/share/fonts/opentype/noto/). SIL OFL 1.1.
* Noto Emoji 3.006 (monochrome outlines, Google Fonts v64), Regular: 400Regular/NotoEmoji_400Regular.ttf
  of the npm package ``@expo-google-fonts/noto-emoji`` 0.4.7, fetched here with ``npm pack``. SIL OFL 1.1.
* Noto Sans Thai 2.000 and Noto Sans Devanagari 2.001, Regular and Bold: from Debian 12's
  ``fonts-noto-core`` 20201225-1 (/usr/share/fonts/truetype/noto/). SIL OFL 1.1.
* Noto Sans Bengali, Tamil, Gujarati, Sinhala, Myanmar, Khmer, Ethiopic and Noto Sans itself, Regular and
  Bold: from the same ``fonts-noto-core`` (``SCRIPT_SHA256``). SIL OFL 1.1.

Repertoires:

* CJK: the 2,136 Japanese Jōyō kanji (plus U+20B9F 𠮟), the 2,965 JIS X 0208 level-1 kanji (most name
  kanji), the 3,755 GB 2312 level-1 hanzi, the 5,401 Big5 level-1 hanzi (frequent traditional forms), the
  2,350 KS X 1001 Hangul syllables, Hangul compatibility jamo, kana (with the phonetic extensions), Bopomofo,
  CJK symbols and punctuation, enclosed CJK letters, and the half-width and full-width forms: 10,440 code
  points (10,414 of them in the font). Outlines without hints (FreeType draws unhinted CFF cleanly at
  board sizes; the hints would add 20%) and only the layout features horizontal text uses (ccmp, liga,
  calt, rlig, kern, mark, mkmk).
* Emoji: every code point of the font outside the private use areas (the emoji blocks, the text symbols
  that have emoji forms, keycap bases, ZWJ, variation selectors and tags), with all its layout features so
  ZWJ sequences and keycaps still form.
* Thai, Devanagari: the whole fonts, hints and layout features kept (they are small and need shaping).
* Bengali ... Ethiopic: each script's Unicode blocks (``SCRIPTS``) and what its shaping needs beside them,
  all layout features, no hints. Noto Sans: Basic Latin, Latin-1 and the combining-mark blocks
  (``MARK_BLOCKS``), for letters with marks DejaVu lacks (U+0359, U+0363-036F ...).

Usage (needs fontTools, the dev extra; from anywhere):

    apt-get install fonts-noto-cjk fonts-noto-core   # Debian 12; the emoji font comes from npm
    python tools/subset_fonts.py                     # rewrite the subsets, licences and coverage.json
    python tools/subset_fonts.py --coverage-only     # only rewrite coverage.json from render/fonts
    python tools/subset_fonts.py --only LICENSE-NotoSans-Scripts.txt   # only the subsets of that licence
    python tools/subset_fonts.py --check             # exit 1 if coverage.json does not match the fonts

The subsets are reproducible byte for byte with fontTools 4.68 (timestamps are not touched).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import subprocess
import sys
import tarfile
import tempfile
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[1]
FONT_DIR = ROOT / "render" / "fonts"
COVERAGE = FONT_DIR / "coverage.json"

CJK_DIR = Path("/usr/share/fonts/opentype/noto")
NOTO_DIR = Path("/usr/share/fonts/truetype/noto")
EMOJI_NPM = "@expo-google-fonts/noto-emoji@0.4.7"

# The 2,136 Jōyō kanji (2010 list, in its order; U+20B9F 𠮟 is listed as its common substitute 叱 and added
# separately in ``cjk_repertoire``).
JOYO = """
亜哀挨愛曖悪握圧扱宛嵐安案暗以衣位囲医依委威為畏胃尉異移萎偉椅彙意違維慰遺緯域育一壱逸茨芋引印因咽姻員院淫陰飲隠韻右宇
羽雨唄鬱畝浦運雲永泳英映栄営詠影鋭衛易疫益液駅悦越謁閲円延沿炎宴怨媛援園煙猿遠鉛塩演縁艶汚王凹央応往押旺欧殴桜翁奥横岡
屋億憶臆虞乙俺卸音恩温穏下化火加可仮何花佳価果河苛科架夏家荷華菓貨渦過嫁暇禍靴寡歌箇稼課蚊牙瓦我画芽賀雅餓介回灰会快戒
改怪拐悔海界皆械絵開階塊楷解潰壊懐諧貝外劾害崖涯街慨蓋該概骸垣柿各角拡革格核殻郭覚較隔閣確獲嚇穫学岳楽額顎掛潟括活喝渇
割葛滑褐轄且株釜鎌刈干刊甘汗缶完肝官冠巻看陥乾勘患貫寒喚堪換敢棺款間閑勧寛幹感漢慣管関歓監緩憾還館環簡観韓艦鑑丸含岸岩
玩眼頑顔願企伎危机気岐希忌汽奇祈季紀軌既記起飢鬼帰基寄規亀喜幾揮期棋貴棄毀旗器畿輝機騎技宜偽欺義疑儀戯擬犠議菊吉喫詰却
客脚逆虐九久及弓丘旧休吸朽臼求究泣急級糾宮救球給嗅窮牛去巨居拒拠挙虚許距魚御漁凶共叫狂京享供協況峡挟狭恐恭胸脅強教郷境
橋矯鏡競響驚仰暁業凝曲局極玉巾斤均近金菌勤琴筋僅禁緊錦謹襟吟銀区句苦駆具惧愚空偶遇隅串屈掘窟熊繰君訓勲薫軍郡群兄刑形系
径茎係型契計恵啓掲渓経蛍敬景軽傾携継詣慶憬稽憩警鶏芸迎鯨隙劇撃激桁欠穴血決結傑潔月犬件見券肩建研県倹兼剣拳軒健険圏堅検
嫌献絹遣権憲賢謙鍵繭顕験懸元幻玄言弦限原現舷減源厳己戸古呼固孤弧股虎故枯個庫湖雇誇鼓錮顧五互午呉後娯悟碁語誤護口工公勾
孔功巧広甲交光向后好江考行坑孝抗攻更効幸拘肯侯厚恒洪皇紅荒郊香候校耕航貢降高康控梗黄喉慌港硬絞項溝鉱構綱酵稿興衡鋼講購
乞号合拷剛傲豪克告谷刻国黒穀酷獄骨駒込頃今困昆恨根婚混痕紺魂墾懇左佐沙査砂唆差詐鎖座挫才再災妻采砕宰栽彩採済祭斎細菜最
裁債催塞歳載際埼在材剤財罪崎作削昨柵索策酢搾錯咲冊札刷刹拶殺察撮擦雑皿三山参桟蚕惨産傘散算酸賛残斬暫士子支止氏仕史司四
市矢旨死糸至伺志私使刺始姉枝祉肢姿思指施師恣紙脂視紫詞歯嗣試詩資飼誌雌摯賜諮示字寺次耳自似児事侍治持時滋慈辞磁餌璽鹿式
識軸七叱失室疾執湿嫉漆質実芝写社車舎者射捨赦斜煮遮謝邪蛇尺借酌釈爵若弱寂手主守朱取狩首殊珠酒腫種趣寿受呪授需儒樹収囚州
舟秀周宗拾秋臭修袖終羞習週就衆集愁酬醜蹴襲十汁充住柔重従渋銃獣縦叔祝宿淑粛縮塾熟出述術俊春瞬旬巡盾准殉純循順準潤遵処初
所書庶暑署緒諸女如助序叙徐除小升少召匠床抄肖尚招承昇松沼昭宵将消症祥称笑唱商渉章紹訟勝掌晶焼焦硝粧詔証象傷奨照詳彰障憧
衝賞償礁鐘上丈冗条状乗城浄剰常情場畳蒸縄壌嬢錠譲醸色拭食植殖飾触嘱織職辱尻心申伸臣芯身辛侵信津神唇娠振浸真針深紳進森診
寝慎新審震薪親人刃仁尽迅甚陣尋腎須図水吹垂炊帥粋衰推酔遂睡穂随髄枢崇数据杉裾寸瀬是井世正生成西声制姓征性青斉政星牲省凄
逝清盛婿晴勢聖誠精製誓静請整醒税夕斥石赤昔析席脊隻惜戚責跡積績籍切折拙窃接設雪摂節説舌絶千川仙占先宣専泉浅洗染扇栓旋船
戦煎羨腺詮践箋銭潜線遷選薦繊鮮全前善然禅漸膳繕狙阻祖租素措粗組疎訴塑遡礎双壮早争走奏相荘草送倉捜挿桑巣掃曹曽爽窓創喪痩
葬装僧想層総遭槽踪操燥霜騒藻造像増憎蔵贈臓即束足促則息捉速側測俗族属賊続卒率存村孫尊損遜他多汰打妥唾堕惰駄太対体耐待怠
胎退帯泰堆袋逮替貸隊滞態戴大代台第題滝宅択沢卓拓託濯諾濁但達脱奪棚誰丹旦担単炭胆探淡短嘆端綻誕鍛団男段断弾暖談壇地池知
値恥致遅痴稚置緻竹畜逐蓄築秩窒茶着嫡中仲虫沖宙忠抽注昼柱衷酎鋳駐著貯丁弔庁兆町長挑帳張彫眺釣頂鳥朝貼超腸跳徴嘲潮澄調聴
懲直勅捗沈珍朕陳賃鎮追椎墜通痛塚漬坪爪鶴低呈廷弟定底抵邸亭貞帝訂庭逓停偵堤提程艇締諦泥的笛摘滴適敵溺迭哲鉄徹撤天典店点
展添転塡田伝殿電斗吐妬徒途都渡塗賭土奴努度怒刀冬灯当投豆東到逃倒凍唐島桃討透党悼盗陶塔搭棟湯痘登答等筒統稲踏糖頭謄藤闘
騰同洞胴動堂童道働銅導瞳峠匿特得督徳篤毒独読栃凸突届屯豚頓貪鈍曇丼那奈内梨謎鍋南軟難二尼弐匂肉虹日入乳尿任妊忍認寧熱年
念捻粘燃悩納能脳農濃把波派破覇馬婆罵拝杯背肺俳配排敗廃輩売倍梅培陪媒買賠白伯拍泊迫剝舶博薄麦漠縛爆箱箸畑肌八鉢発髪伐抜
罰閥反半氾犯帆汎伴判坂阪板版班畔般販斑飯搬煩頒範繁藩晩番蛮盤比皮妃否批彼披肥非卑飛疲秘被悲扉費碑罷避尾眉美備微鼻膝肘匹
必泌筆姫百氷表俵票評漂標苗秒病描猫品浜貧賓頻敏瓶不夫父付布扶府怖阜附訃負赴浮婦符富普腐敷膚賦譜侮武部舞封風伏服副幅復福
腹複覆払沸仏物粉紛雰噴墳憤奮分文聞丙平兵併並柄陛閉塀幣弊蔽餅米壁璧癖別蔑片辺返変偏遍編弁便勉歩保哺捕補舗母募墓慕暮簿方
包芳邦奉宝抱放法泡胞俸倣峰砲崩訪報蜂豊飽褒縫亡乏忙坊妨忘防房肪某冒剖紡望傍帽棒貿貌暴膨謀頰北木朴牧睦僕墨撲没勃堀本奔翻
凡盆麻摩磨魔毎妹枚昧埋幕膜枕又末抹万満慢漫未味魅岬密蜜脈妙民眠矛務無夢霧娘名命明迷冥盟銘鳴滅免面綿麺茂模毛妄盲耗猛網目
黙門紋問冶夜野弥厄役約訳薬躍闇由油喩愉諭輸癒唯友有勇幽悠郵湧猶裕遊雄誘憂融優与予余誉預幼用羊妖洋要容庸揚揺葉陽溶腰様瘍
踊窯養擁謡曜抑沃浴欲翌翼拉裸羅来雷頼絡落酪辣乱卵覧濫藍欄吏利里理痢裏履璃離陸立律慄略柳流留竜粒隆硫侶旅虜慮了両良料涼猟
陵量僚領寮療瞭糧力緑林厘倫輪隣臨瑠涙累塁類令礼冷励戻例鈴零霊隷齢麗暦歴列劣烈裂恋連廉練錬呂炉賂路露老労弄郎朗浪廊楼漏籠
六録麓論和話賄脇惑枠湾腕
"""


def _double_byte(codec: str, leads: Iterable[int], trails: Iterable[int]) -> set[int]:
    """The characters a double-byte legacy charset encodes with these lead and trail bytes."""
    out: set[int] = set()
    trail_bytes = list(trails)
    for lead in leads:
        for trail in trail_bytes:
            try:
                text = bytes([lead, trail]).decode(codec)
            except UnicodeDecodeError:
                continue
            if len(text) == 1:
                out.add(ord(text))
    return out


def _span(first: int, last: int) -> set[int]:
    return set(range(first, last + 1))


def cjk_repertoire() -> set[int]:
    joyo = {ord(c) for c in JOYO if not c.isspace()} | {0x20B9F}
    assert len(joyo) == 2137, len(joyo)
    euc = range(0xA1, 0xFF)
    jis_level1 = _double_byte("euc_jp", range(0xB0, 0xD0), euc)                   # 2,965 kanji
    gb_level1 = _double_byte("gb2312", range(0xB0, 0xD8), euc)                    # 3,755 hanzi
    ks_hangul = _double_byte("euc_kr", range(0xB0, 0xC9), euc)                    # 2,350 syllables
    big5_level1 = {c for c in _double_byte("big5", range(0xA4, 0xC7), [*range(0x40, 0x7F), *euc])
                   if 0x4E00 <= c <= 0x9FFF}                                       # 5,401 hanzi
    assert (len(jis_level1), len(gb_level1), len(ks_hangul), len(big5_level1)) == (2965, 3755, 2350, 5401)
    blocks = (_span(0x3000, 0x303F)      # CJK symbols and punctuation
              | _span(0x3040, 0x30FF)    # hiragana, katakana
              | _span(0x3100, 0x312F)    # bopomofo
              | _span(0x3130, 0x318F)    # Hangul compatibility jamo
              | _span(0x31F0, 0x31FF)    # katakana phonetic extensions
              | _span(0x3200, 0x32FF)    # enclosed CJK letters and months
              | _span(0xFF00, 0xFFEF))   # half-width and full-width forms
    return joyo | jis_level1 | gb_level1 | ks_hangul | big5_level1 | blocks


def _not_private(cmap: Iterable[int]) -> set[int]:
    return {c for c in cmap if not (0xE000 <= c <= 0xF8FF or c >= 0xF0000)}


def emoji_repertoire(font: TTFont) -> set[int]:
    return _not_private(font.getBestCmap())


def whole_font(font: TTFont) -> set[int]:
    return set(font.getBestCmap())


# The scripts added for names DejaVu cannot draw (issue [16]): each font cut to its script's blocks, with
# the characters its shaping needs beside them (spaces, dandas, ZWNJ / ZWJ, the dotted circle); no hints.
SCRIPT_EXTRAS = (0x20, 0xA0, 0x964, 0x965, 0x200C, 0x200D, 0x25CC)
SCRIPTS = {                                  # font family (Noto Sans ...) -> its Unicode blocks
    "Bengali": ((0x0980, 0x09FF),),
    "Tamil": ((0x0B80, 0x0BFF), (0x11FC0, 0x11FFF)),
    "Gujarati": ((0x0A80, 0x0AFF),),
    "Sinhala": ((0x0D80, 0x0DFF), (0x111E0, 0x111FF)),
    "Myanmar": ((0x1000, 0x109F), (0xA9E0, 0xA9FF), (0xAA60, 0xAA7F)),
    "Khmer": ((0x1780, 0x17FF), (0x19E0, 0x19FF)),
    "Ethiopic": ((0x1200, 0x139F), (0x2D80, 0x2DDF), (0xAB00, 0xAB2F), (0x1E7E0, 0x1E7FF)),
}
# Noto Sans itself, for letters with the combining marks DejaVu lacks (U+0359, U+0363-036F ...): a cluster is
# drawn by one font, so the font needs the letters too (Basic Latin, Latin-1 and the mark blocks).
MARK_BLOCKS = ((0x0020, 0x00FF), (0x0300, 0x036F), (0x1AB0, 0x1AFF), (0x1DC0, 0x1DFF), (0x20D0, 0x20FF),
               (0xFE20, 0xFE2F))


def blocks(ranges: tuple[tuple[int, int], ...],
           extras: tuple[int, ...] = SCRIPT_EXTRAS) -> Callable[[TTFont], set[int]]:
    """A repertoire: the font's code points inside ``ranges``, and ``extras`` it has."""
    def repertoire(font: TTFont) -> set[int]:
        return {c for c in font.getBestCmap() if c in extras or any(lo <= c <= hi for lo, hi in ranges)}
    return repertoire


CJK_FEATURES = ["ccmp", "liga", "calt", "rlig", "kern", "mark", "mkmk"]


@dataclass(frozen=True)
class Subset:
    out: str                                    # file name in render/fonts
    source: str                                 # "cjk:<file>", "noto:<file>" or "emoji:<path in the npm package>"
    sha256: str                                 # of the source file
    repertoire: Callable[[TTFont], set[int]]
    face: int = 0                               # face of a .ttc collection (0: Noto Sans CJK JP)
    hinting: bool = True
    features: tuple[str, ...] = ("*",)
    licence: str = ""                           # the licence file beside it (shared by a family) ...
    licence_source: str = ""                    # ... its text copied from this source file ("emoji:" for the npm one)


SCRIPT_SHA256 = {                            # fonts-noto-core 20201225-1 (Debian 12)
    "NotoSansBengali-Regular.ttf": "9bb35b3547829ecc42041b6017e87fd4c5f1da1edcd00f59171777050f346018",
    "NotoSansBengali-Bold.ttf": "22c9ff99baca4d31c531ce450a1369beed889467e1ad964f4b8a6f810aa46955",
    "NotoSansTamil-Regular.ttf": "a7bb7f92f165479af2f0556c4fd669b74c5959f464f603e18389b532f4d07a71",
    "NotoSansTamil-Bold.ttf": "7ef7071ba2fad67dcae397dc7f5bfd4dbce69d86cdc453c2cc4abe640df0b442",
    "NotoSansGujarati-Regular.ttf": "4468a3a24516831874fb4a867b760a22257944584e478d32a97e3c4d4bfc6400",
    "NotoSansGujarati-Bold.ttf": "db2b642c28b021da8cb0f3463bf41376549c850aa718ca863ec3ff5d5df0f2f7",
    "NotoSansSinhala-Regular.ttf": "31f83eec724a27779d1434afc84beabee239c0ff77dc8d04bee9f49c60b23fdd",
    "NotoSansSinhala-Bold.ttf": "9ac3c2da2562fd3ce449e600a9954a3c5dad982145c85159449fe1c31f648a6e",
    "NotoSansMyanmar-Regular.ttf": "3fe9a4babc12081adc979e0313433e6ec85bb3ad069681c23ee8d8ea8b91332b",
    "NotoSansMyanmar-Bold.ttf": "e37e2ef189431020b1eaf4fb8d43252666dc24265d628145fff119613afea174",
    "NotoSansKhmer-Regular.ttf": "bc9a5e2afcee249849e409aabe6e22330c479b878ea3e59bf5e7c84482d7ee53",
    "NotoSansKhmer-Bold.ttf": "cc74e7ac685da9a84e18b773ec8d80d06765aa1754bb14acc390c3620023c4dc",
    "NotoSansEthiopic-Regular.ttf": "58bc43b062961b38ee45757d2e74e6a991a12011aa0399fb03004ac432e5c852",
    "NotoSansEthiopic-Bold.ttf": "cc16f0c43be76a2ecb5f6d08de4fe6705886b9be90251bfb5959a90955be7f1d",
    "NotoSans-Regular.ttf": "89c3c497f618fdaa0b2d1e98fef93582f28c71debd2c4a8cdf41f190ced2909d",
    "NotoSans-Bold.ttf": "e83493c945848ecd4a9ad0f6d19164541a0d3e23a9c952304a00a46e00272ac5",
}

SUBSETS = (
    Subset("NotoSansCJKjp-Regular.subset.otf", "cjk:NotoSansCJK-Regular.ttc",
           "b76b0433203017ca80401b2ee0dd69350349871c4b19d504c34dbdd80541690a", lambda _f: cjk_repertoire(),
           hinting=False, features=tuple(CJK_FEATURES),
           licence="LICENSE-NotoSansCJK.txt", licence_source="/usr/share/doc/fonts-noto-cjk/copyright"),
    Subset("NotoSansCJKjp-Bold.subset.otf", "cjk:NotoSansCJK-Bold.ttc",
           "faa5f3656a78b2e2d450d27fe8382c778bc2b6bb5ea29c986664a6a435056ceb", lambda _f: cjk_repertoire(),
           hinting=False, features=tuple(CJK_FEATURES),
           licence="LICENSE-NotoSansCJK.txt", licence_source="/usr/share/doc/fonts-noto-cjk/copyright"),
    Subset("NotoEmoji-Regular.subset.ttf", "emoji:400Regular/NotoEmoji_400Regular.ttf",
           "24aaa2a20c9c06ffe9bf04284bfd1f14376a329d10122f902abe2770817eb504", emoji_repertoire,
           licence="LICENSE-NotoEmoji.txt", licence_source="emoji:LICENSE_FONT"),
    Subset("NotoSansThai-Regular.subset.ttf", "noto:NotoSansThai-Regular.ttf",
           "dfbd5ed0f1e68c3cbc51aa08f646d1ab0e68e7c4ceab70a69e465225ff701f93", whole_font,
           licence="LICENSE-NotoSans-Thai-Devanagari.txt",
           licence_source="/usr/share/doc/fonts-noto-core/copyright"),
    Subset("NotoSansThai-Bold.subset.ttf", "noto:NotoSansThai-Bold.ttf",
           "97bbc8ea98328325285f2f552228c7aac1db39d8f38f0096a61ba7df1f1f780e", whole_font,
           licence="LICENSE-NotoSans-Thai-Devanagari.txt",
           licence_source="/usr/share/doc/fonts-noto-core/copyright"),
    Subset("NotoSansDevanagari-Regular.subset.ttf", "noto:NotoSansDevanagari-Regular.ttf",
           "79a470365ccb210fa3c7d8d8ff2e005ef9d983cfd067f735a0caf7e15070ca9f", whole_font,
           licence="LICENSE-NotoSans-Thai-Devanagari.txt",
           licence_source="/usr/share/doc/fonts-noto-core/copyright"),
    Subset("NotoSansDevanagari-Bold.subset.ttf", "noto:NotoSansDevanagari-Bold.ttf",
           "77ad688cfe1dc55185bf4edb4db3c614202c65dd23a1463ad0e23fc52bcc9a5c", whole_font,
           licence="LICENSE-NotoSans-Thai-Devanagari.txt",
           licence_source="/usr/share/doc/fonts-noto-core/copyright"),
    *(Subset(f"NotoSans{family}-{weight}.subset.ttf", f"noto:NotoSans{family}-{weight}.ttf",
             SCRIPT_SHA256[f"NotoSans{family}-{weight}.ttf"], blocks(ranges), hinting=False,
             licence="LICENSE-NotoSans-Scripts.txt", licence_source="/usr/share/doc/fonts-noto-core/copyright")
      for family, ranges in SCRIPTS.items() for weight in ("Regular", "Bold")),
    *(Subset(f"NotoSans-{weight}.marks.subset.ttf", f"noto:NotoSans-{weight}.ttf",
             SCRIPT_SHA256[f"NotoSans-{weight}.ttf"], blocks(MARK_BLOCKS, ()), hinting=False,
             licence="LICENSE-NotoSans-Scripts.txt", licence_source="/usr/share/doc/fonts-noto-core/copyright")
      for weight in ("Regular", "Bold")),
)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _fetch_emoji_package(workdir: Path) -> Path:
    """``npm pack`` the emoji font's npm package into ``workdir`` and unpack it; the package directory."""
    subprocess.run(["npm", "pack", "--silent", EMOJI_NPM], cwd=workdir, check=True, stdout=subprocess.DEVNULL)
    tarball = next(workdir.glob("*.tgz"))
    with tarfile.open(tarball) as tar:
        tar.extractall(workdir, filter="data")
    return workdir / "package"


def _resolve(source: str, emoji_dir: Path) -> Path:
    kind, _, name = source.partition(":")
    return {"cjk": CJK_DIR, "noto": NOTO_DIR, "emoji": emoji_dir}[kind] / name


def make_subset(spec: Subset, emoji_dir: Path, any_version: bool) -> int:
    src = _resolve(spec.source, emoji_dir)
    digest = _sha256(src)
    if digest != spec.sha256:
        message = f"{src}: sha256 {digest} is not the documented {spec.sha256}"
        if not any_version:
            sys.exit(message + " (pass --any-version to use it anyway)")
        print("warning:", message, file=sys.stderr)
    font = TTFont(str(src), fontNumber=spec.face, recalcTimestamp=False, lazy=False)
    options = subset.Options()
    options.layout_features = list(spec.features)
    options.hinting = spec.hinting
    options.notdef_outline = True
    options.name_IDs = ["*"]            # keep copyright, trademark, licence and its URL in the font
    options.recalc_timestamp = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(spec.repertoire(font)))
    subsetter.subset(font)
    buf = io.BytesIO()
    font.save(buf)
    (FONT_DIR / spec.out).write_bytes(buf.getvalue())
    return len(buf.getvalue())


def write_licences(emoji_dir: Path, only: str | None = None) -> None:
    """Each family's licence file: which subsets it covers and the copyright notice in each, then the
    licence text the source ships (Debian's copyright file, or the npm package's LICENSE_FONT)."""
    for licence in dict.fromkeys(spec.licence for spec in SUBSETS):
        if only is not None and licence != only:
            continue
        specs = [spec for spec in SUBSETS if spec.licence == licence]
        head = []
        for spec in specs:
            names = TTFont(str(FONT_DIR / spec.out), lazy=True)["name"]
            version = (names.getDebugName(5) or "").split(";")[0]
            head.append(f"{spec.out}: {names.getDebugName(4)} {version}, subset by tools/subset_fonts.py\n"
                        f"  {names.getDebugName(0)} {names.getDebugName(7) or ''}".rstrip())
        kind, _, name = specs[0].licence_source.partition(":")
        source = emoji_dir / name if kind == "emoji" else Path(specs[0].licence_source)
        origin = f"{name} of the npm package {EMOJI_NPM}" if kind == "emoji" else source
        text = ("\n".join(head) + "\n\nLicensed under the SIL Open Font License, Version 1.1. The licence as the "
                f"source ships it\n({origin}) follows.\n\n"
                + source.read_text(encoding="utf-8"))
        (FONT_DIR / licence).write_text(text, encoding="utf-8")


def bitmap_text(codepoints: Iterable[int]) -> str:
    """Code points as the runtime reads them: a bitmap (bit ``c % 8`` of byte ``c // 8`` set for code point
    ``c``), zlib-compressed and base64-encoded. About 4 KB for the CJK subset, under 1 KB for the others."""
    cps = sorted(codepoints)
    bits = bytearray(cps[-1] // 8 + 1 if cps else 0)
    for c in cps:
        bits[c >> 3] |= 1 << (c & 7)
    return base64.b64encode(zlib.compress(bytes(bits), 9)).decode("ascii")


def bitmap_codepoints(text: str) -> set[int]:
    """The code points of a ``bitmap_text``."""
    bits = zlib.decompress(base64.b64decode(text))
    return {i * 8 + b for i, byte in enumerate(bits) if byte for b in range(8) if byte >> b & 1}


def font_codepoints(path: Path) -> set[int]:
    """The code points the font's cmap maps to a glyph other than .notdef."""
    font = TTFont(str(path), lazy=True)
    return {c for c, glyph in font.getBestCmap().items() if glyph != ".notdef"}


def coverage_table() -> dict[str, dict[str, object]]:
    """For every font in render/fonts: its sha256, how many code points it has, and their bitmap."""
    table: dict[str, dict[str, object]] = {}
    for path in sorted(FONT_DIR.iterdir()):
        if path.suffix.lower() in (".ttf", ".otf"):
            cps = font_codepoints(path)
            table[path.name] = {"sha256": _sha256(path), "codepoints": len(cps), "bitmap": bitmap_text(cps)}
    return table


def coverage_text(table: dict[str, dict[str, object]]) -> str:
    """The coverage table as committed: one font a line, so a diff shows which font changed."""
    lines = [f"  {json.dumps(name)}: {json.dumps(entry, separators=(',', ':'))}" for name, entry in table.items()]
    return ("{\n" + '  "_about": "code points each font in render/fonts has, written by tools/subset_fonts.py",\n'
            + ",\n".join(lines) + "\n}\n")


def stale_entries() -> list[str]:
    """The fonts whose coverage.json entry is missing or does not match the font file (by code points and
    sha256, not by the compressed text, which may differ between zlib builds)."""
    committed = json.loads(COVERAGE.read_text(encoding="utf-8")) if COVERAGE.exists() else {}
    stale = []
    for path in sorted(FONT_DIR.iterdir()):
        if path.suffix.lower() not in (".ttf", ".otf"):
            continue
        entry = committed.get(path.name)
        if (not entry or entry["sha256"] != _sha256(path)
                or bitmap_codepoints(entry["bitmap"]) != font_codepoints(path)):
            stale.append(path.name)
    fonts = {p.name for p in FONT_DIR.iterdir()}
    stale += [name for name in committed if not name.startswith("_") and name not in fonts]
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--coverage-only", action="store_true", help="only rewrite coverage.json")
    parser.add_argument("--check", action="store_true", help="exit 1 if coverage.json is stale")
    parser.add_argument("--emoji-package", type=Path, help="an unpacked @expo-google-fonts/noto-emoji package "
                                                            "(default: npm pack it into a temporary directory)")
    parser.add_argument("--any-version", action="store_true", help="accept sources whose sha256 differs")
    parser.add_argument("--only", metavar="LICENCE", help="make only the subsets under this licence file (e.g. "
                                                         "LICENSE-NotoSans-Scripts.txt), without the emoji package")
    args = parser.parse_args(argv)

    if args.check:
        stale = stale_entries()
        if stale:
            print(f"{COVERAGE.relative_to(ROOT)} is stale for {', '.join(stale)}: "
                  "run python tools/subset_fonts.py --coverage-only")
            return 1
        print(f"{COVERAGE.relative_to(ROOT)} matches the fonts")
        return 0

    if args.only:
        for spec in SUBSETS:
            if spec.licence == args.only:
                print(f"{spec.out}: {make_subset(spec, Path(), args.any_version):,} bytes")
        write_licences(Path(), only=args.only)
    elif not args.coverage_only:
        with tempfile.TemporaryDirectory() as tmp:
            emoji_dir = args.emoji_package or _fetch_emoji_package(Path(tmp))
            for spec in SUBSETS:
                size = make_subset(spec, emoji_dir, args.any_version)
                print(f"{spec.out}: {size:,} bytes")
            write_licences(emoji_dir)
    COVERAGE.write_text(coverage_text(coverage_table()), encoding="utf-8")
    print(f"{COVERAGE.relative_to(ROOT)}: {COVERAGE.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
