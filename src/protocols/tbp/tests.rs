use super::*;
use crate::eval::guideline::GuidelineWeights;
use crate::games::guideline::{ComboTable, Objective, TopOut};
use crate::games::srs::{self, RotationSystem};

/// A piece's cells around its TBP centre in the north orientation, as the protocol's
/// description of SRS true rotation gives them (I: the centre is the middle-left cell; O: the
/// bottom-left one).
fn north(shape: Shape) -> [(i32, i32); 4] {
    match shape {
        Shape::I => [(-1, 0), (0, 0), (1, 0), (2, 0)],
        Shape::O => [(0, 0), (1, 0), (0, 1), (1, 1)],
        Shape::T => [(-1, 0), (0, 0), (1, 0), (0, 1)],
        Shape::L => [(-1, 0), (0, 0), (1, 0), (1, 1)],
        Shape::J => [(-1, 0), (0, 0), (1, 0), (-1, 1)],
        Shape::S => [(-1, 0), (0, 0), (0, 1), (1, 1)],
        Shape::Z => [(-1, 1), (0, 1), (0, 0), (1, 0)],
    }
}

fn sorted(mut c: Vec<(i32, i32)>) -> Vec<(i32, i32)> {
    c.sort();
    c
}

#[test]
fn locations_name_the_cells_the_protocol_means() {
    for shape in Shape::ALL {
        for state in 0..4u8 {
            // A clockwise turn about the centre cell: (x, y) -> (y, -x).
            let mut want = north(shape).to_vec();
            for _ in 0..state {
                want = want.iter().map(|&(x, y)| (y, -x)).collect();
            }
            let piece = Active {
                shape,
                state,
                x: 3,
                y: 5,
                twist: Twist::None,
            };
            let at = location_of(&piece);
            assert_eq!(at.orientation.state(), state);
            let got: Vec<(i32, i32)> = piece
                .cells()
                .iter()
                .map(|&(x, y)| (x as i32 - at.x, y as i32 - at.y))
                .collect();
            assert_eq!(sorted(got), sorted(want), "{shape:?} state {state}");
            assert_eq!(active_of(&at, Spin::None), Some(piece));
        }
    }
    // Spawn: every piece's centre at (4, 20), as the guideline's x = 4 says.
    for shape in Shape::ALL {
        let board = Board::EMPTY;
        let at = location_of(&Active::spawn(&board, shape).unwrap());
        assert_eq!((at.x, at.y), (4, 20), "{shape:?}");
    }
    // Coordinates no i8 holds are refused, not wrapped.
    let far = Location {
        piece: Shape::T,
        orientation: Orientation::North,
        x: 1000,
        y: 0,
    };
    assert_eq!(active_of(&far, Spin::None), None);
    // Nor are those whose cells would pass i8's end.
    for (x, y) in [(126, 0), (0, 127), (-128, 3)] {
        let edge = Location { x, y, ..far };
        assert_eq!(active_of(&edge, Spin::None), None, "({x}, {y})");
    }
}

#[test]
fn lines_that_are_no_message_say_why() {
    assert!(parse_line(b"{\"type\": \"suggest\"")
        .unwrap_err()
        .contains("not JSON"));
    assert!(parse_line(b"[1, 2]").unwrap_err().contains("no \"type\""));
    assert!(parse_line(&[0xff, b'\n']).unwrap_err().contains("UTF-8"));
    let e = parse_line(br#"{"type": "new_piece", "piece": "X"}"#).unwrap_err();
    assert!(e.starts_with("new_piece: "), "{e}");
    assert!(parse_line(b"  \n").unwrap().is_none());
    assert!(matches!(
        parse_line(br#"{"type": "future_thing", "x": 1}"#),
        Ok(Some(FrontendMessage::Unknown))
    ));
    assert!(matches!(
        parse_line(br#"{"type": "rules", "randomizer": 7}"#),
        Ok(Some(FrontendMessage::Rules(_)))
    ));
}

fn rules() -> Rules {
    Rules {
        rotation: RotationSystem::SrsPlus,
        combo_table: ComboTable::Guideline,
        objective: Objective::Attack,
        top: TopOut::Guideline,
    }
}

fn start(queue: &[Shape], hold: Option<Shape>) -> StartMessage {
    StartMessage {
        board: vec![vec![None; 10]; 40],
        queue: queue.to_vec(),
        hold,
        combo: 0,
        back_to_back: false,
        randomizer: None,
    }
}

#[test]
fn a_start_beamtris_passes_over_says_why_once() {
    use Shape::*;
    let with = |queue: &[Shape], randomizer: &str| StartMessage {
        randomizer: serde_json::from_str(randomizer).unwrap(),
        ..start(queue, None)
    };
    // (queue, randomizer, the note under the 7-bag, whether the bag is still read)
    let cases: [(&[Shape], &str, Option<&str>, bool); 9] = [
        (&[T, I, O], "null", None, true),
        (&[T, I], r#"{"type":"seven_bag","bag_state":["O","S"]}"#, None, true),
        (&[T; 6], "null", Some("start: the queue fits no 7-bag; reading the queue alone from now on"), false),
        (
            &[T, I],
            r#"{"type":"seven_bag","bag_state":["T"]}"#,
            Some("start: the queue and randomizer.bag_state fit no 7-bag; reading the queue alone from now on"),
            false,
        ),
        (
            &[T, I],
            r#"{"type":"seven_bag","bag_state":["Q"]}"#,
            Some("start: randomizer.bag_state: \"Q\" is not a piece; the randomizer is ignored (the bag is inferred from the queue)"),
            true,
        ),
        (
            &[T, I],
            "5",
            Some("start: randomizer 5 is not an object with a \"type\" string; the randomizer is ignored (the bag is inferred from the queue)"),
            true,
        ),
        (&[T, I], r#"{"type":"seven_bag","bag_state":[]}"#, Some("randomizer.bag_state [] is not a non-empty list"), true),
        (&[T, I], r#"{"type":"seven_bag","bag_state":["O","O"]}"#, Some("O twice"), true),
        (&[T, I], r#"{"type":"uniform"}"#, Some("randomizer type \"uniform\" is not the rules' \"seven_bag\""), true),
    ];
    for (queue, randomizer, note, bag) in cases {
        let (pos, notes) = Position::start(&with(queue, randomizer), true);
        match note {
            None => assert!(notes.is_empty(), "{randomizer}: {notes:?}"),
            Some(note) => {
                assert_eq!(notes.len(), 1, "{randomizer}: {notes:?}");
                assert!(notes[0].contains(note), "{randomizer}: {notes:?}");
            }
        }
        assert_eq!(pos.bag.is_some(), bag, "{queue:?} {randomizer}");
        assert_eq!(pos.queue.len(), queue.len());
    }
    // Without the 7-bag nothing is read, but a malformed randomizer is still named; one of
    // another type, or a queue no bag deals, is not.
    let (_, notes) = Position::start(&with(&[T, I], "5"), false);
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(!notes[0].contains("inferred"), "{notes:?}");
    for (queue, randomizer) in [(&[T; 6][..], "null"), (&[T, I], r#"{"type":"uniform"}"#)] {
        let (pos, notes) = Position::start(&with(queue, randomizer), false);
        assert!(notes.is_empty() && pos.bag.is_none(), "{notes:?}");
    }
    // A bad randomizer and a queue no bag deals: a note for each.
    let (_, notes) = Position::start(&with(&[T; 6], "5"), true);
    assert_eq!(notes.len(), 2, "{notes:?}");
}

fn at(piece: Shape, orientation: Orientation, x: i32, y: i32) -> TbpMove {
    TbpMove {
        location: Location {
            piece,
            orientation,
            x,
            y,
        },
        spin: Spin::None,
    }
}

#[test]
fn a_play_takes_the_hold_its_piece_implies() {
    use Shape::*;
    let mut pos = Position::from_start(&start(&[T, I, O, S], None), false);
    // An I while T is in play and the slot is empty: T goes to hold, I (the next) is played.
    pos.play(&at(I, Orientation::North, 4, 0), &rules())
        .unwrap();
    assert_eq!(pos.state.hold, Some(T));
    assert_eq!(pos.queue, [O, S]);
    assert!((3..7).all(|x| pos.state.board.filled(x, 0)));
    // The held T for the O in play: swap.
    pos.play(&at(T, Orientation::South, 1, 1), &rules())
        .unwrap();
    assert_eq!(pos.state.hold, Some(O));
    assert_eq!(pos.queue, [S]);
    // Neither the S in play nor the held O.
    assert!(pos
        .play(&at(Z, Orientation::North, 4, 5), &rules())
        .is_err());
    // Overlap and cells above beamtris's rows are refused with their reason.
    let e = pos
        .play(&at(S, Orientation::North, 4, 0), &rules())
        .unwrap_err();
    assert!(e.contains("overlaps"), "{e}");
    let e = pos
        .play(&at(S, Orientation::North, 4, 30), &rules())
        .unwrap_err();
    assert!(e.contains("above row 23"), "{e}");
    let e = pos
        .play(&at(S, Orientation::North, 4, 47), &rules())
        .unwrap_err();
    assert!(e.contains("above row 23"), "{e}");
    let e = pos
        .play(&at(S, Orientation::North, 4, 2000), &rules())
        .unwrap_err();
    assert!(e.contains("off the board"), "{e}");
}

#[test]
fn a_board_taller_than_beamtris_is_not_playable() {
    let mut s = start(&[Shape::T, Shape::I], None);
    s.board[30][4] = Some("G".into());
    let pos = Position::from_start(&s, false);
    assert!(pos.unplayable.as_deref().unwrap().contains("(4, 30)"));
    let mut s = start(&[Shape::T], None);
    s.board[0] = vec![None; 9];
    assert!(Position::from_start(&s, false).unplayable.is_some());
    // A full row is played as given, with a note.
    let mut s = start(&[Shape::T], None);
    s.board[0] = vec![Some("G".into()); 10];
    let (pos, notes) = Position::start(&s, false);
    assert!(pos.unplayable.is_none());
    assert!(notes.iter().any(|n| n.contains("a full row")), "{notes:?}");
    // Combo and back-to-back carry over: TBP's 2 clears in a row is beamtris's counter 1.
    let mut s = start(&[Shape::T], None);
    s.combo = 2;
    s.back_to_back = true;
    let pos = Position::from_start(&s, false);
    assert_eq!((pos.state.combo, pos.state.b2b), (1, true));
}

fn config(think_ms: u64) -> Config {
    Config {
        rules: rules(),
        beam: 200,
        previews: 5,
        think: Duration::from_millis(think_ms),
        evaluator: GuidelineEvaluator::new(GuidelineWeights::preset("attack").unwrap()),
        speculation: None,
        pool: rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap(),
        ponder: true,
    }
}

#[test]
fn suggestions_are_reachable_placements_best_first() {
    use Shape::*;
    let c = config(5_000);
    for (queue, hold) in [
        (vec![T, I, O, S, Z, J], None),
        (vec![L, I, O, S, Z, J], Some(T)),
        (vec![O], None),
        (vec![O], Some(I)),
    ] {
        let pos = Position::from_start(&start(&queue, hold), false);
        let s = suggest(&pos, &c, &AtomicBool::new(false));
        assert!(s.empty_because.is_none());
        assert!(!s.moves.is_empty() && s.moves.len() <= MAX_MOVES);
        for m in &s.moves {
            // Every move replays onto its location from spawn by the engine's own moves.
            let piece = active_of(&m.location, m.spin).unwrap();
            let placement = movegen::lands_as(&pos.state.board, &piece);
            assert!(movegen::path(&pos.state.board, &placement, RotationSystem::SrsPlus).is_some());
            let allowed = [
                Some(queue[0]),
                hold,
                queue.get(1).copied().filter(|_| hold.is_none()),
            ];
            assert!(allowed.contains(&Some(m.location.piece)), "{m:?}");
            assert!(srs::cells(piece.shape, piece.state)
                .iter()
                .all(|&(x, y)| piece.y + y >= 0 && piece.x + x >= 0));
        }
    }
    // A stack in the spawn rows: no moves, and the reason is the spawn, not a lock out.
    let mut blocked = start(&[T, I], Some(O));
    blocked.board[20][5] = Some("G".into());
    let pos = Position::from_start(&blocked, false);
    let s = suggest(&pos, &c, &AtomicBool::new(false));
    assert!(s.moves.is_empty());
    assert_eq!(
        s.empty_because.as_deref(),
        Some("the stack blocks the guideline spawn (rows 20 and 21): block out")
    );
    // No piece, no moves.
    let pos = Position::from_start(&start(&[], Some(T)), false);
    assert!(suggest(&pos, &c, &AtomicBool::new(false))
        .empty_because
        .is_some());
}

#[test]
fn under_tetrio_top_a_piece_starts_over_a_stack_in_the_guideline_spawn() {
    use Shape::*;
    let mut c = config(5_000);
    c.rules.top = TopOut::Tetrio;
    // Twenty rows, each with one covered hole (no row is full), and a cell in row 20 under
    // the spawn: the guideline's spawn is taken, TETR.IO's row above is free.
    let mut blocked = start(&[T, I, O, S], None);
    for (y, row) in blocked.board.iter_mut().enumerate().take(20) {
        for (x, cell) in row.iter_mut().enumerate() {
            *cell = (x != y % 10).then(|| "G".into());
        }
    }
    blocked.board[20][5] = Some("G".into());
    let pos = Position::from_start(&blocked, false);
    let s = suggest(&pos, &c, &AtomicBool::new(false));
    assert_eq!(s.empty_because, None);
    assert!(!s.moves.is_empty());
    for m in &s.moves {
        let piece = active_of(&m.location, m.spin).unwrap();
        let placement = movegen::lands_as(&pos.state.board, &piece);
        assert!(movegen::path_under(&pos.state.board, &placement, &c.rules).is_some());
        assert!(movegen::path(&pos.state.board, &placement, RotationSystem::SrsPlus).is_none());
    }
    // A move wholly above the twenty rows is no lock out under TETR.IO's top: it is
    // suggested, and a front end's play of it is taken (the guideline's top refuses it).
    let above = s
        .moves
        .iter()
        .find(|m| {
            let piece = active_of(&m.location, m.spin).unwrap();
            piece.cells().iter().all(|&(_, y)| y >= 20)
        })
        .expect("a move above the twenty rows");
    pos.clone().play(above, &c.rules).unwrap();
    assert_eq!(
        pos.clone().play(above, &rules()),
        Err("the piece locks entirely above row 19 (lock out)".into())
    );
    // TETR.IO's spawn taken as well: block out.
    blocked.board[21][5] = Some("G".into());
    blocked.board[22][5] = Some("G".into());
    let pos = Position::from_start(&blocked, false);
    let s = suggest(&pos, &c, &AtomicBool::new(false));
    assert!(s.moves.is_empty());
    assert_eq!(
        s.empty_because.as_deref(),
        Some("the stack blocks TETR.IO's spawn (rows 21 and 22): block out")
    );
}

/// Runs a whole conversation over `input`; returns stdout's lines.
fn conversation(input: &str, think_ms: u64) -> Vec<serde_json::Value> {
    let mut out = Vec::new();
    serve(
        std::io::Cursor::new(input.as_bytes().to_vec()),
        &mut out,
        &config(think_ms),
    )
    .unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_session_answers_in_order_and_keeps_serving_past_bad_lines() {
    let empty_row = format!("[{}]", ["null"; 10].join(","));
    let board = format!("[{}]", vec![empty_row.as_str(); 40].join(","));
    // A line past the limit, with and without its newline in the first read.
    let long = "x".repeat(MAX_LINE + 10);
    let exact = format!("{}\n", "y".repeat(MAX_LINE));
    let input = format!(
        "{{\"type\":\"suggest\"}}\n{long}\nnot json\n{exact}{{\"type\":\"rules\",\"randomizer\":\"seven_bag\"}}\n\
         {{\"type\":\"hello\"}}\n\
         {{\"type\":\"start\",\"board\":{board},\"queue\":[\"T\",\"I\",\"O\",\"S\",\"Z\",\"J\"],\
         \"hold\":null,\"combo\":0,\"back_to_back\":false}}\n{{\"type\":\"suggest\"}}\n\
         {{\"type\":\"quit\"}}\n{{\"type\":\"suggest\"}}\n"
    );
    let lines = conversation(&input, 2_000);
    let kinds: Vec<&str> = lines.iter().map(|l| l["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["info", "suggestion", "ready", "suggestion"]);
    assert_eq!(lines[0]["name"], "beamtris");
    assert_eq!(lines[0]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(lines[1]["moves"].as_array().unwrap().len(), 0);
    let first = &lines[3]["moves"][0];
    assert!(["T", "I"].contains(&first["location"]["type"].as_str().unwrap()));
}

/// Input that hands out its lines one read at a time, sleeping `pause` before each line that
/// begins with `before`: a front end that thinks before it asks.
struct SlowInput {
    lines: VecDeque<String>,
    before: &'static str,
    pause: Duration,
}

impl Read for SlowInput {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let Some(line) = self.lines.pop_front() else {
            return Ok(0);
        };
        if line.starts_with(self.before) {
            std::thread::sleep(self.pause);
        }
        let n = line.len().min(buf.len());
        buf[..n].copy_from_slice(&line.as_bytes()[..n]);
        if n < line.len() {
            self.lines.push_front(line[n..].to_string());
        }
        Ok(n)
    }
}

#[test]
fn thinking_ahead_makes_the_same_moves_sooner() {
    let empty_row = format!("[{}]", ["null"; 10].join(","));
    let board = format!("[{}]", vec![empty_row.as_str(); 40].join(","));
    let lines = [
        "{\"type\":\"rules\",\"randomizer\":\"seven_bag\"}\n".to_string(),
        format!(
            "{{\"type\":\"start\",\"board\":{board},\"queue\":[\"T\",\"I\",\"O\",\"S\",\"Z\",\"J\"],\
             \"hold\":null,\"combo\":0,\"back_to_back\":false}}\n"
        ),
        // No quit after it: a quit read while a search runs cuts it short, at a point that
        // depends on the machine's load; the end of input cuts nothing.
        "{\"type\":\"suggest\"}\n".to_string(),
    ];
    let run = |ponder: bool| {
        let input = SlowInput {
            lines: lines.iter().cloned().collect(),
            before: "{\"type\":\"suggest\"",
            pause: Duration::from_millis(600),
        };
        let mut out = Vec::new();
        let c = Config {
            ponder,
            beam: 2_000,
            ..config(5_000)
        };
        serve(std::io::BufReader::new(input), &mut out, &c).unwrap();
        let lines: Vec<serde_json::Value> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        lines[2].clone()
    };
    let ahead = run(true);
    let asked = run(false);
    assert_eq!(ahead["type"], "suggestion");
    assert_eq!(ahead["moves"], asked["moves"]);
    let extra = ahead["move_info"]["extra"].as_str().unwrap();
    assert!(extra.contains("before the suggest"), "{extra}");
    assert!(!asked["move_info"]["extra"]
        .as_str()
        .unwrap()
        .contains("before the suggest"));
}

mod never_panics {
    use super::*;
    use proptest::prelude::*;

    /// Valid lines, mutated by the strategy below.
    const LINES: [&str; 5] = [
        r#"{"type":"start","board":[[null,null,null,null,null,null,null,null,null,"G"]],"queue":["T","I","O"],"hold":"S","combo":3,"back_to_back":true,"randomizer":{"type":"seven_bag","bag_state":["J","L"]}}"#,
        r#"{"type":"play","move":{"location":{"type":"T","orientation":"south","x":4,"y":1},"spin":"full"}}"#,
        r#"{"type":"play","move":{"location":{"type":"I","orientation":"east","x":0,"y":2},"spin":"none"}}"#,
        r#"{"type":"new_piece","piece":"Z"}"#,
        r#"{"type":"rules","randomizer":"seven_bag"}"#,
    ];

    fn line() -> impl Strategy<Value = Vec<u8>> {
        (
            0..LINES.len(),
            any::<prop::sample::Index>(),
            0usize..6,
            proptest::collection::vec(any::<u8>(), 0..8),
        )
            .prop_map(|(i, at, cut, with)| {
                let mut v = LINES[i].as_bytes().to_vec();
                let start = at.index(v.len());
                let end = (start + cut).min(v.len());
                v.splice(start..end, with);
                v
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        /// Any mutation of a message is refused with a reason or followed without a panic,
        /// and a suggestion on what it leaves is made.
        #[test]
        fn mutated_messages(lines in proptest::collection::vec(line(), 1..6)) {
            let c = Config { beam: 4, ..config(1_000) };
            let mut pos = Position::from_start(&start(&[Shape::T, Shape::I, Shape::O], None), true);
            for l in &lines {
                match parse_line(l) {
                    Ok(Some(FrontendMessage::Start(s))) => pos = Position::from_start(&s, true),
                    Ok(Some(FrontendMessage::Play { mv })) => {
                        let _ = pos.play(&mv, &c.rules);
                    }
                    Ok(Some(FrontendMessage::NewPiece { piece })) => {
                        let _ = pos.new_piece(piece);
                    }
                    _ => {}
                }
                let s = suggest(&pos, &c, &AtomicBool::new(false));
                prop_assert!(s.moves.len() <= MAX_MOVES);
            }
        }
    }
}

/// A full garbage meter (told by the arena; TBP has no message for it). On a stack of thirteen
/// rows with a well, waiting for an I, the search builds on top; with eight rows waiting,
/// every lock that clears nothing lets them in and tops out, so it clears the top row with
/// the O: garbage comes in only on a lock that clears nothing.
#[test]
fn a_full_meter_makes_the_search_clear_instead_of_build() {
    use Shape::*;
    let c = config(5_000);
    let mut tall = start(&[O, T, S, Z, L, J], None);
    for (y, row) in tall.board.iter_mut().enumerate().take(13) {
        for (x, cell) in row.iter_mut().enumerate() {
            let open = if y == 12 { x == 1 || x == 2 } else { x == 9 };
            *cell = (!open).then(|| "G".into());
        }
    }
    let mut pos = Position::from_start(&tall, false);
    let calm = suggest(&pos, &c, &AtomicBool::new(false)).moves[0];
    pos.incoming = Incoming {
        rows: 8,
        cap: 8,
        hole: Some(3),
    };
    let fed = suggest(&pos, &c, &AtomicBool::new(false)).moves[0];
    assert_eq!(fed, at(O, Orientation::North, 1, 12), "{fed:?}");
    assert_ne!(calm, fed, "without the meter the search builds: {calm:?}");
    let mut after = pos.clone();
    after.play(&fed, &c.rules).unwrap();
    assert_eq!(after.state.combo, 0, "the O clears the top row");
}
