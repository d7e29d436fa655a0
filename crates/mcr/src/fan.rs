//! The 81 fans of MCR (and the reference calculator's extra fan 82), in official order.

/// A fan, numbered as in the official order (1998 Chinese rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Fan {
    /// Big Four Winds (大四喜), 88 points in the reference table.
    BigFourWinds = 1,
    /// Big Three Dragons (大三元), 88 points in the reference table.
    BigThreeDragons = 2,
    /// All Green (绿一色), 88 points in the reference table.
    AllGreen = 3,
    /// Nine Gates (九莲宝灯), 88 points in the reference table.
    NineGates = 4,
    /// Four Kongs (四杠), 88 points in the reference table.
    FourKongs = 5,
    /// Seven Shifted Pairs (连七对), 88 points in the reference table.
    SevenShiftedPairs = 6,
    /// Thirteen Orphans (十三幺), 88 points in the reference table.
    ThirteenOrphans = 7,
    /// All Terminals (清幺九), 64 points in the reference table.
    AllTerminals = 8,
    /// Little Four Winds (小四喜), 64 points in the reference table.
    LittleFourWinds = 9,
    /// Little Three Dragons (小三元), 64 points in the reference table.
    LittleThreeDragons = 10,
    /// All Honors (字一色), 64 points in the reference table.
    AllHonors = 11,
    /// Four Concealed Pungs (四暗刻), 64 points in the reference table.
    FourConcealedPungs = 12,
    /// Pure Terminal Chows (一色双龙会), 64 points in the reference table.
    PureTerminalChows = 13,
    /// Quadruple Chow (一色四同顺), 48 points in the reference table.
    QuadrupleChow = 14,
    /// Four Pure Shifted Pungs (一色四节高), 48 points in the reference table.
    FourPureShiftedPungs = 15,
    /// Four Pure Shifted Chows (一色四步高), 32 points in the reference table.
    FourPureShiftedChows = 16,
    /// Three Kongs (三杠), 32 points in the reference table.
    ThreeKongs = 17,
    /// All Terminals and Honors (混幺九), 32 points in the reference table.
    AllTerminalsAndHonors = 18,
    /// Seven Pairs (七对), 24 points in the reference table.
    SevenPairs = 19,
    /// Greater Honors and Knitted Tiles (七星不靠), 24 points in the reference table.
    GreaterHonorsAndKnittedTiles = 20,
    /// All Even Pungs (全双刻), 24 points in the reference table.
    AllEvenPungs = 21,
    /// Full Flush (清一色), 24 points in the reference table.
    FullFlush = 22,
    /// Pure Triple Chow (一色三同顺), 24 points in the reference table.
    PureTripleChow = 23,
    /// Pure Shifted Pungs (一色三节高), 24 points in the reference table.
    PureShiftedPungs = 24,
    /// Upper Tiles (全大), 24 points in the reference table.
    UpperTiles = 25,
    /// Middle Tiles (全中), 24 points in the reference table.
    MiddleTiles = 26,
    /// Lower Tiles (全小), 24 points in the reference table.
    LowerTiles = 27,
    /// Pure Straight (清龙), 16 points in the reference table.
    PureStraight = 28,
    /// Three-Suited Terminal Chows (三色双龙会), 16 points in the reference table.
    ThreeSuitedTerminalChows = 29,
    /// Pure Shifted Chows (一色三步高), 16 points in the reference table.
    PureShiftedChows = 30,
    /// All Five (全带五), 16 points in the reference table.
    AllFive = 31,
    /// Triple Pung (三同刻), 16 points in the reference table.
    TriplePung = 32,
    /// Three Concealed Pungs (三暗刻), 16 points in the reference table.
    ThreeConcealedPungs = 33,
    /// Lesser Honors and Knitted Tiles (全不靠), 12 points in the reference table.
    LesserHonorsAndKnittedTiles = 34,
    /// Knitted Straight (组合龙), 12 points in the reference table.
    KnittedStraight = 35,
    /// Upper Four (大于五), 12 points in the reference table.
    UpperFour = 36,
    /// Lower Four (小于五), 12 points in the reference table.
    LowerFour = 37,
    /// Big Three Winds (三风刻), 12 points in the reference table.
    BigThreeWinds = 38,
    /// Mixed Straight (花龙), 8 points in the reference table.
    MixedStraight = 39,
    /// Reversible Tiles (推不倒), 8 points in the reference table.
    ReversibleTiles = 40,
    /// Mixed Triple Chow (三色三同顺), 8 points in the reference table.
    MixedTripleChow = 41,
    /// Mixed Shifted Pungs (三色三节高), 8 points in the reference table.
    MixedShiftedPungs = 42,
    /// Chicken Hand (无番和), 8 points in the reference table.
    ChickenHand = 43,
    /// Last Tile Draw (妙手回春), 8 points in the reference table.
    LastTileDraw = 44,
    /// Last Tile Claim (海底捞月), 8 points in the reference table.
    LastTileClaim = 45,
    /// Out with Replacement Tile (杠上开花), 8 points in the reference table.
    OutWithReplacementTile = 46,
    /// Robbing The Kong (抢杠和), 8 points in the reference table.
    RobbingTheKong = 47,
    /// All Pungs (碰碰和), 6 points in the reference table.
    AllPungs = 48,
    /// Half Flush (混一色), 6 points in the reference table.
    HalfFlush = 49,
    /// Mixed Shifted Chows (三色三步高), 6 points in the reference table.
    MixedShiftedChows = 50,
    /// All Types (五门齐), 6 points in the reference table.
    AllTypes = 51,
    /// Melded Hand (全求人), 6 points in the reference table.
    MeldedHand = 52,
    /// Two Concealed Kongs (双暗杠), 6 points in the reference table.
    TwoConcealedKongs = 53,
    /// Two Dragons Pungs (双箭刻), 6 points in the reference table.
    TwoDragonsPungs = 54,
    /// Outside Hand (全带幺), 4 points in the reference table.
    OutsideHand = 55,
    /// Fully Concealed Hand (不求人), 4 points in the reference table.
    FullyConcealedHand = 56,
    /// Two Melded Kongs (双明杠), 4 points in the reference table.
    TwoMeldedKongs = 57,
    /// Last Tile (和绝张), 4 points in the reference table.
    LastTile = 58,
    /// Dragon Pung (箭刻), 2 points in the reference table.
    DragonPung = 59,
    /// Prevalent Wind (圈风刻), 2 points in the reference table.
    PrevalentWind = 60,
    /// Seat Wind (门风刻), 2 points in the reference table.
    SeatWind = 61,
    /// Concealed Hand (门前清), 2 points in the reference table.
    ConcealedHand = 62,
    /// All Chows (平和), 2 points in the reference table.
    AllChows = 63,
    /// Tile Hog (四归一), 2 points in the reference table.
    TileHog = 64,
    /// Double Pung (双同刻), 2 points in the reference table.
    DoublePung = 65,
    /// Two Concealed Pungs (双暗刻), 2 points in the reference table.
    TwoConcealedPungs = 66,
    /// Concealed Kong (暗杠), 2 points in the reference table.
    ConcealedKong = 67,
    /// All Simples (断幺), 2 points in the reference table.
    AllSimples = 68,
    /// Pure Double Chow (一般高), 1 points in the reference table.
    PureDoubleChow = 69,
    /// Mixed Double Chow (喜相逢), 1 points in the reference table.
    MixedDoubleChow = 70,
    /// Short Straight (连六), 1 points in the reference table.
    ShortStraight = 71,
    /// Two Terminal Chows (老少副), 1 points in the reference table.
    TwoTerminalChows = 72,
    /// Pung of Terminals or Honors (幺九刻), 1 points in the reference table.
    PungOfTerminalsOrHonors = 73,
    /// Melded Kong (明杠), 1 points in the reference table.
    MeldedKong = 74,
    /// One Voided Suit (缺一门), 1 points in the reference table.
    OneVoidedSuit = 75,
    /// No Honors (无字), 1 points in the reference table.
    NoHonors = 76,
    /// Edge Wait (边张), 1 points in the reference table.
    EdgeWait = 77,
    /// Closed Wait (嵌张), 1 points in the reference table.
    ClosedWait = 78,
    /// Single Wait (单钓将), 1 points in the reference table.
    SingleWait = 79,
    /// Self-Drawn (自摸), 1 points in the reference table.
    SelfDrawn = 80,
    /// Flower Tiles (花牌), 1 points in the reference table.
    FlowerTiles = 81,
    /// Concealed Kong and Melded Kong (明暗杠), 5 points in the reference table.
    ConcealedKongAndMeldedKong = 82,
}

/// Every fan, indexed by number − 1.
pub const ALL_FANS: [Fan; 82] = [
    Fan::BigFourWinds,
    Fan::BigThreeDragons,
    Fan::AllGreen,
    Fan::NineGates,
    Fan::FourKongs,
    Fan::SevenShiftedPairs,
    Fan::ThirteenOrphans,
    Fan::AllTerminals,
    Fan::LittleFourWinds,
    Fan::LittleThreeDragons,
    Fan::AllHonors,
    Fan::FourConcealedPungs,
    Fan::PureTerminalChows,
    Fan::QuadrupleChow,
    Fan::FourPureShiftedPungs,
    Fan::FourPureShiftedChows,
    Fan::ThreeKongs,
    Fan::AllTerminalsAndHonors,
    Fan::SevenPairs,
    Fan::GreaterHonorsAndKnittedTiles,
    Fan::AllEvenPungs,
    Fan::FullFlush,
    Fan::PureTripleChow,
    Fan::PureShiftedPungs,
    Fan::UpperTiles,
    Fan::MiddleTiles,
    Fan::LowerTiles,
    Fan::PureStraight,
    Fan::ThreeSuitedTerminalChows,
    Fan::PureShiftedChows,
    Fan::AllFive,
    Fan::TriplePung,
    Fan::ThreeConcealedPungs,
    Fan::LesserHonorsAndKnittedTiles,
    Fan::KnittedStraight,
    Fan::UpperFour,
    Fan::LowerFour,
    Fan::BigThreeWinds,
    Fan::MixedStraight,
    Fan::ReversibleTiles,
    Fan::MixedTripleChow,
    Fan::MixedShiftedPungs,
    Fan::ChickenHand,
    Fan::LastTileDraw,
    Fan::LastTileClaim,
    Fan::OutWithReplacementTile,
    Fan::RobbingTheKong,
    Fan::AllPungs,
    Fan::HalfFlush,
    Fan::MixedShiftedChows,
    Fan::AllTypes,
    Fan::MeldedHand,
    Fan::TwoConcealedKongs,
    Fan::TwoDragonsPungs,
    Fan::OutsideHand,
    Fan::FullyConcealedHand,
    Fan::TwoMeldedKongs,
    Fan::LastTile,
    Fan::DragonPung,
    Fan::PrevalentWind,
    Fan::SeatWind,
    Fan::ConcealedHand,
    Fan::AllChows,
    Fan::TileHog,
    Fan::DoublePung,
    Fan::TwoConcealedPungs,
    Fan::ConcealedKong,
    Fan::AllSimples,
    Fan::PureDoubleChow,
    Fan::MixedDoubleChow,
    Fan::ShortStraight,
    Fan::TwoTerminalChows,
    Fan::PungOfTerminalsOrHonors,
    Fan::MeldedKong,
    Fan::OneVoidedSuit,
    Fan::NoHonors,
    Fan::EdgeWait,
    Fan::ClosedWait,
    Fan::SingleWait,
    Fan::SelfDrawn,
    Fan::FlowerTiles,
    Fan::ConcealedKongAndMeldedKong,
];

const INFO: [(&str, &str, u8); 82] = [
    ("Big Four Winds", "大四喜", 88),
    ("Big Three Dragons", "大三元", 88),
    ("All Green", "绿一色", 88),
    ("Nine Gates", "九莲宝灯", 88),
    ("Four Kongs", "四杠", 88),
    ("Seven Shifted Pairs", "连七对", 88),
    ("Thirteen Orphans", "十三幺", 88),
    ("All Terminals", "清幺九", 64),
    ("Little Four Winds", "小四喜", 64),
    ("Little Three Dragons", "小三元", 64),
    ("All Honors", "字一色", 64),
    ("Four Concealed Pungs", "四暗刻", 64),
    ("Pure Terminal Chows", "一色双龙会", 64),
    ("Quadruple Chow", "一色四同顺", 48),
    ("Four Pure Shifted Pungs", "一色四节高", 48),
    ("Four Pure Shifted Chows", "一色四步高", 32),
    ("Three Kongs", "三杠", 32),
    ("All Terminals and Honors", "混幺九", 32),
    ("Seven Pairs", "七对", 24),
    ("Greater Honors and Knitted Tiles", "七星不靠", 24),
    ("All Even Pungs", "全双刻", 24),
    ("Full Flush", "清一色", 24),
    ("Pure Triple Chow", "一色三同顺", 24),
    ("Pure Shifted Pungs", "一色三节高", 24),
    ("Upper Tiles", "全大", 24),
    ("Middle Tiles", "全中", 24),
    ("Lower Tiles", "全小", 24),
    ("Pure Straight", "清龙", 16),
    ("Three-Suited Terminal Chows", "三色双龙会", 16),
    ("Pure Shifted Chows", "一色三步高", 16),
    ("All Five", "全带五", 16),
    ("Triple Pung", "三同刻", 16),
    ("Three Concealed Pungs", "三暗刻", 16),
    ("Lesser Honors and Knitted Tiles", "全不靠", 12),
    ("Knitted Straight", "组合龙", 12),
    ("Upper Four", "大于五", 12),
    ("Lower Four", "小于五", 12),
    ("Big Three Winds", "三风刻", 12),
    ("Mixed Straight", "花龙", 8),
    ("Reversible Tiles", "推不倒", 8),
    ("Mixed Triple Chow", "三色三同顺", 8),
    ("Mixed Shifted Pungs", "三色三节高", 8),
    ("Chicken Hand", "无番和", 8),
    ("Last Tile Draw", "妙手回春", 8),
    ("Last Tile Claim", "海底捞月", 8),
    ("Out with Replacement Tile", "杠上开花", 8),
    ("Robbing The Kong", "抢杠和", 8),
    ("All Pungs", "碰碰和", 6),
    ("Half Flush", "混一色", 6),
    ("Mixed Shifted Chows", "三色三步高", 6),
    ("All Types", "五门齐", 6),
    ("Melded Hand", "全求人", 6),
    ("Two Concealed Kongs", "双暗杠", 6),
    ("Two Dragons Pungs", "双箭刻", 6),
    ("Outside Hand", "全带幺", 4),
    ("Fully Concealed Hand", "不求人", 4),
    ("Two Melded Kongs", "双明杠", 4),
    ("Last Tile", "和绝张", 4),
    ("Dragon Pung", "箭刻", 2),
    ("Prevalent Wind", "圈风刻", 2),
    ("Seat Wind", "门风刻", 2),
    ("Concealed Hand", "门前清", 2),
    ("All Chows", "平和", 2),
    ("Tile Hog", "四归一", 2),
    ("Double Pung", "双同刻", 2),
    ("Two Concealed Pungs", "双暗刻", 2),
    ("Concealed Kong", "暗杠", 2),
    ("All Simples", "断幺", 2),
    ("Pure Double Chow", "一般高", 1),
    ("Mixed Double Chow", "喜相逢", 1),
    ("Short Straight", "连六", 1),
    ("Two Terminal Chows", "老少副", 1),
    ("Pung of Terminals or Honors", "幺九刻", 1),
    ("Melded Kong", "明杠", 1),
    ("One Voided Suit", "缺一门", 1),
    ("No Honors", "无字", 1),
    ("Edge Wait", "边张", 1),
    ("Closed Wait", "嵌张", 1),
    ("Single Wait", "单钓将", 1),
    ("Self-Drawn", "自摸", 1),
    ("Flower Tiles", "花牌", 1),
    ("Concealed Kong and Melded Kong", "明暗杠", 5),
];

impl Fan {
    /// Official number 1–81; 82 for "Concealed Kong and Melded Kong".
    pub const fn number(self) -> u8 {
        self as u8
    }
    /// The fan with this number.
    pub fn from_number(n: u8) -> Option<Fan> {
        (1..=82).contains(&n).then(|| ALL_FANS[n as usize - 1])
    }
    /// English name, spelled as the reference calculator spells it.
    pub const fn name(self) -> &'static str {
        INFO[self as usize - 1].0
    }
    /// Chinese name.
    pub const fn chinese(self) -> &'static str {
        INFO[self as usize - 1].1
    }
    /// Points of one occurrence in the 1998 table (rule profiles may change a few).
    pub const fn base_points(self) -> u8 {
        INFO[self as usize - 1].2
    }
}

impl std::fmt::Display for Fan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
