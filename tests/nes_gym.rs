//! TetrisGYM's seeded pieces against the sequences the ROM dealt for four seeds. The
//! expected sequences are those of TetrisGYM's own test, tests/src/sps.rs
//! (kirjavascript/TetrisGYM, MIT), run there on the assembled ROM in an emulator.

use beamtris::games::nes::gym::gym_pieces;
use beamtris::piece::Shape;

fn check(seed: [u8; 3], expected: &str) {
    let got: String = gym_pieces(seed)
        .take(expected.len())
        .map(Shape::letter)
        .collect();
    assert_eq!(got, expected, "seed {seed:02X?}");
}

#[test]
fn seed_101010() {
    check([0x10, 0x10, 0x10], "ZJOTLTZJLZJSZISIJOLITJSILZJILITSISZOITIZSZJLLTIOZJZSZISIJZTIZJTSOJSJISJOOTSJTOTZSZTZSLTZTOTSIZJZIJIL");
}

#[test]
fn seed_123456() {
    check([0x12, 0x34, 0x56], "ZTZIJIJOZTSOSZJZOSLIOIJIJSTZSTTJISSTOIZJITJOZJITSOSZSJLTISJOITTLSLJTZTZOZSLJTJZSLTSOTLOJLSJSJTJILOJS");
}

#[test]
fn seed_87ab12() {
    check([0x87, 0xAB, 0x12], "OZIJSOTZSJTSTJZLOLJOJISOZOIOZJITILSSJZLOIJSTITLSOJILTSOOLZOOIJOZLTLSISIJIJTOLSIJILSLOLJLTOSOSLOIZSIS");
}

#[test]
fn seed_133702() {
    check([0x13, 0x37, 0x02], "OJSTZSIOLSIJTSZILJZJJLZLISISJTLZTSZTJOJOSJSZLITJOIOTITILTOSTJSZTSOOIOJSIITLJOZSIOJOTZTLJLIOJLITSSLSLIJIIOLOISLZJLIJJTIZIJOJISLTIJTOTZIOILSTTLTZIZJSOLOZOZOLOTZTZOTZOSIOTJJTSIZSOLTOLIZSOZOTZISLJTSZLOISO");
}
