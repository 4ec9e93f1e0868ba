//! Rule tests for every variant, written from the rules: exact layouts, move lists, positions
//! and event sequences.

use std::sync::Arc;

use arachne_engine::{
    Card, DiscardMode, Event, Game, GameOptions, HistoryError, Move, MoveError, Numbering,
    Position, Scoring, Variant, Variants, deal,
};

fn variant(id: &str) -> Arc<Variant> {
    Variants::default().get(id).expect(id).clone()
}

fn pos(text: &str) -> Position {
    Position::parse(text, &Variants::default()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace()
        .map(|c| c.parse().expect(c))
        .collect()
}

fn moves(p: &Position) -> Vec<String> {
    p.legal_moves().iter().map(Move::to_string).collect()
}

fn game(text: &str) -> Game {
    let p = pos(text);
    let options = GameOptions::for_variant(p.variant());
    Game::from_position(p, options)
}

fn text_of(p: &Position) -> String {
    p.to_string()
}

fn mv(text: &str) -> Move {
    text.parse().expect(text)
}

/// `(face_down, face_up)` per column, stock size and deals for seed 1 of each variant, from the
/// table in the rules issue.
#[test]
fn every_variant_deals_its_layout() {
    let classic: Vec<(usize, usize)> = (0..10).map(|c| (if c < 4 { 5 } else { 4 }, 1)).collect();
    /// Variant, `(face_down, face_up)` per column, stock size, deals.
    type Case = (&'static str, Vec<(usize, usize)>, usize, usize);
    let cases: Vec<Case> = vec![
        ("spider-1suit", classic.clone(), 50, 5),
        ("spider-2suit", classic.clone(), 50, 5),
        ("spider-4suit", classic.clone(), 50, 5),
        ("red-black-spider", classic.clone(), 50, 5),
        ("spiderette", (0..7).map(|c| (c, 1)).collect(), 24, 4),
        ("will-o-the-wisp", vec![(2, 1); 7], 31, 5),
        (
            "spider-three-decks",
            (0..12).map(|c| (if c < 6 { 4 } else { 3 }, 1)).collect(),
            102,
            9,
        ),
        (
            "huge-spider",
            (0..20).map(|c| (if c < 8 { 5 } else { 4 }, 1)).collect(),
            100,
            5,
        ),
    ];
    for (id, layout, stock, deals) in cases {
        for seed in [1, 99] {
            let p = deal(&variant(id), seed, Numbering::Arachne, variant(id).discard).unwrap();
            let got: Vec<(usize, usize)> = p
                .columns()
                .iter()
                .map(|c| (c.face_down(), c.face_up().len()))
                .collect();
            assert_eq!(got, layout, "{id}");
            assert_eq!(p.stock_len(), stock, "{id}");
            assert_eq!(p.deals_left(), deals, "{id}");
            assert!(p.foundation().is_empty());
            let mut all: Vec<Card> = p.cards_in_play().collect();
            let mut deck = p.variant().deck();
            all.sort();
            deck.sort();
            assert_eq!(all, deck, "{id}: every card of the deck is dealt once");
        }
    }
}

#[test]
fn variant_rules_match_the_table() {
    use arachne_engine::Grouping::{Color, Suit as BySuit};
    use arachne_engine::Suit::*;
    let rows = [
        (
            "spider-1suit",
            2,
            vec![Spades],
            false,
            BySuit,
            DiscardMode::Automatic,
        ),
        (
            "spider-2suit",
            2,
            vec![Spades, Hearts],
            false,
            BySuit,
            DiscardMode::Automatic,
        ),
        (
            "spider-4suit",
            2,
            vec![Spades, Hearts, Diamonds, Clubs],
            false,
            BySuit,
            DiscardMode::Automatic,
        ),
        (
            "red-black-spider",
            2,
            vec![Spades, Hearts, Diamonds, Clubs],
            false,
            Color,
            DiscardMode::Manual,
        ),
        (
            "spiderette",
            1,
            vec![Spades, Hearts, Diamonds, Clubs],
            false,
            BySuit,
            DiscardMode::Automatic,
        ),
        (
            "will-o-the-wisp",
            1,
            vec![Spades, Hearts, Diamonds, Clubs],
            false,
            BySuit,
            DiscardMode::Automatic,
        ),
        (
            "spider-three-decks",
            3,
            vec![Spades, Hearts, Diamonds, Clubs],
            true,
            BySuit,
            DiscardMode::Manual,
        ),
        (
            "huge-spider",
            4,
            vec![Spades, Hearts, Diamonds, Clubs],
            false,
            BySuit,
            DiscardMode::Automatic,
        ),
    ];
    for (id, decks, suits, empty_deal, grouping, discard) in rows {
        let v = variant(id);
        assert_eq!(v.decks, decks, "{id}");
        assert_eq!(v.suits, suits, "{id}");
        assert_eq!(v.deal_with_empty_column, empty_deal, "{id}");
        assert_eq!(v.grouping, grouping, "{id}");
        assert_eq!(v.discard, discard, "{id}");
        assert_eq!(v.deck().len(), usize::from(decks) * 52, "{id}");
    }
}

#[test]
fn golden_deals_never_change() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden");
    let mut checked = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let (numbering, rest) = match name.strip_prefix("kpat-") {
            Some(rest) => (Numbering::Kpat, rest),
            None => (Numbering::Arachne, name.as_str()),
        };
        let (id, seed) = rest.rsplit_once('-').unwrap();
        let v = variant(id);
        let p = deal(&v, seed.parse().unwrap(), numbering, v.discard).unwrap();
        assert_eq!(
            p.to_string(),
            std::fs::read_to_string(&path).unwrap(),
            "{name}"
        );
        checked += 1;
    }
    assert_eq!(checked, 22);
}

#[test]
fn kpat_numbering_only_for_classic_spider() {
    let v = variant("spiderette");
    assert_eq!(
        deal(&v, 1, Numbering::Kpat, v.discard)
            .unwrap_err()
            .to_string(),
        "variant `spiderette` has no KPatience numbering (only spider-1suit, spider-2suit and spider-4suit do)"
    );
    let v = variant("spider-1suit");
    assert!(deal(&v, 1 << 32, Numbering::Kpat, v.discard).is_err());
}

/// One deck's worth of hearts on a 7-column table; the other three suits are in the foundation.
const WISP_HEARTS: &str = "\
variant: will-o-the-wisp
stock:
foundation: 3
1: Kh Qh Jh Th
2: 9h 8h
3: 7h
4: 6h 5h
5: 4h
6: 3h 2h
7: Ah
";

#[test]
fn cards_build_down_one_rank_and_suited_runs_move_together() {
    let p = pos(WISP_HEARTS);
    assert_eq!(
        moves(&p),
        ["2>1:2", "3>2:1", "4>3:2", "5>4:1", "6>5:2", "7>6:1"]
    );
    assert_eq!(p.movable_run(0), 4);
    assert_eq!(
        p.check(mv("2>1:1")),
        Err(MoveError::DoesNotFit {
            card: "8h".parse().unwrap(),
            onto: "Th".parse().unwrap(),
            column: 0
        })
    );
    assert_eq!(
        p.check(mv("2>1:3")),
        Err(MoveError::NotARun {
            column: 1,
            count: 3,
            movable: 2
        })
    );
}

#[test]
fn completing_a_run_discards_it_automatically_and_wins() {
    let mut g = game(WISP_HEARTS);
    for m in ["7>6:1", "6>5:3", "5>4:4", "4>3:6", "3>2:7", "2>1:9"] {
        let events = g.apply(mv(m)).unwrap();
        if m != "2>1:9" {
            assert!(
                matches!(events.as_slice(), [Event::Moved { .. }]),
                "{m}: {events:?}"
            );
        } else {
            let run = cards("Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h 2h Ah");
            assert_eq!(
                events,
                vec![
                    Event::Moved {
                        from: 1,
                        to: 0,
                        cards: run[4..].to_vec()
                    },
                    Event::RunCompleted {
                        column: 0,
                        cards: run.clone(),
                        slot: 3
                    },
                    Event::Won,
                ]
            );
        }
    }
    assert!(g.is_won());
    assert!(g.legal_moves().is_empty());
    assert!(!g.is_stuck(), "a won game is not stuck");
    // Undo brings the run back from the foundation, then the cards back to column 2.
    let back = g.undo().unwrap();
    assert_eq!(back.len(), 2);
    assert!(matches!(
        &back[0],
        Event::RunRestored {
            column: 0,
            slot: 3,
            ..
        }
    ));
    assert!(matches!(&back[1], Event::Moved { from: 0, to: 1, cards } if cards.len() == 9));
    assert!(!g.is_won());
    assert_eq!(g.redo().unwrap().last(), Some(&Event::Won));
}

#[test]
fn kings_go_only_to_empty_columns() {
    let p = pos("\
variant: will-o-the-wisp
stock:
foundation: 3
1: Kh
2: Qh
3: Jh Th 9h
4: 8h 7h 6h
5: 5h 4h
6: 3h 2h
7: Ah
");
    // Nothing ranks above a King, so 1>N is never legal while no column is empty.
    assert!(
        moves(&p).iter().all(|m| !m.starts_with("1>")),
        "{:?}",
        moves(&p)
    );
    assert_eq!(
        moves(&p),
        ["2>1:1", "3>2:3", "4>3:3", "5>4:2", "6>5:2", "7>6:1"]
    );
    let mut p = p;
    p.play(mv("2>1:1")).unwrap();
    // Column 2 is now empty: any movable run may go there, Kings included.
    assert_eq!(
        moves(&p),
        [
            "1>2:1", "1>2:2", "3>2:1", "3>2:2", "3>1:3", "3>2:3", "4>2:1", "4>2:2", "4>2:3",
            "4>3:3", "5>2:1", "5>2:2", "5>4:2", "6>2:1", "6>2:2", "6>5:2", "7>2:1", "7>6:1"
        ]
    );
}

#[test]
fn a_face_down_card_turns_up_at_once() {
    let mut g = game(
        "\
variant: spiderette
stock:
foundation: 3
1: Kd
2: Qd | 9d
3: Jd | Td
4: 8d
5: 7d 6d 5d
6: 4d 3d
7: 2d | Ad
",
    );
    let events = g.apply(mv("2>3:1")).unwrap();
    assert_eq!(
        events,
        vec![
            Event::Moved {
                from: 1,
                to: 2,
                cards: cards("9d")
            },
            Event::TurnedUp {
                column: 1,
                card: "Qd".parse().unwrap()
            }
        ]
    );
    assert_eq!(g.position().columns()[1].face_down(), 0);
    let back = g.undo().unwrap();
    assert_eq!(
        back,
        vec![
            Event::TurnedDown {
                column: 1,
                card: "Qd".parse().unwrap()
            },
            Event::Moved {
                from: 2,
                to: 1,
                cards: cards("9d")
            }
        ]
    );
    assert_eq!(g.position(), g.start());
}

#[test]
fn a_position_cannot_show_a_face_down_top_card() {
    let err = Position::parse(
        "variant: spiderette\nstock:\nfoundation: 3\n1: Kd\n2: Qd |\n",
        &Variants::default(),
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 5: column 2 has a face-down card on top (every column's top card is face up)"
    );
}

#[test]
fn spider_deals_ten_cards_five_times() {
    let v = variant("spider-2suit");
    let mut p = deal(&v, 3, Numbering::Arachne, v.discard).unwrap();
    let before: Vec<usize> = p.columns().iter().map(|c| c.len()).collect();
    for d in 0..5 {
        assert_eq!(p.deals_left(), 5 - d);
        let next: Vec<Card> = p.stock().take(10).collect();
        p.play(Move::Deal).unwrap();
        let tops: Vec<Card> = p.columns().iter().map(|c| c.top().unwrap()).collect();
        assert_eq!(
            tops, next,
            "deal {d}: the next cards go to columns 1, 2, 3, ... in order"
        );
    }
    let after: Vec<usize> = p.columns().iter().map(|c| c.len()).collect();
    assert_eq!(after, before.iter().map(|n| n + 5).collect::<Vec<_>>());
    assert_eq!(p.check(Move::Deal), Err(MoveError::StockEmpty));
    assert!(!moves(&p).contains(&"deal".to_string()));
}

#[test]
fn one_deck_variants_end_with_a_three_card_deal_to_columns_1_to_3() {
    for (id, full_deals) in [("spiderette", 3), ("will-o-the-wisp", 4)] {
        let v = variant(id);
        let mut g = Game::new(&v, 5, Numbering::Arachne, GameOptions::for_variant(&v)).unwrap();
        for _ in 0..full_deals {
            let events = g.apply(Move::Deal).unwrap();
            let Event::Dealt { cards } = &events[0] else {
                panic!("{events:?}")
            };
            assert_eq!(
                cards.iter().map(|c| c.0).collect::<Vec<_>>(),
                [0, 1, 2, 3, 4, 5, 6]
            );
        }
        assert_eq!(g.position().stock_len(), 3, "{id}");
        let lengths: Vec<usize> = g.position().columns().iter().map(|c| c.len()).collect();
        let events = g.apply(Move::Deal).unwrap();
        let Event::Dealt { cards } = &events[0] else {
            panic!("{events:?}")
        };
        assert_eq!(
            cards.iter().map(|c| c.0).collect::<Vec<_>>(),
            [0, 1, 2],
            "{id}"
        );
        let now: Vec<usize> = g.position().columns().iter().map(|c| c.len()).collect();
        let grew: Vec<usize> = now.iter().zip(&lengths).map(|(a, b)| a - b).collect();
        assert_eq!(grew, [1, 1, 1, 0, 0, 0, 0], "{id}");
        assert_eq!(g.apply(Move::Deal), Err(MoveError::StockEmpty));
    }
}

#[test]
fn three_decks_deals_twelve_then_six_and_may_deal_onto_empty_columns() {
    let v = variant("spider-three-decks");
    let mut p = deal(&v, 8, Numbering::Arachne, v.discard).unwrap();
    for _ in 0..8 {
        p.play(Move::Deal).unwrap();
    }
    assert_eq!(p.stock_len(), 6);
    let mut p2 = pos("\
variant: spider-three-decks
stock: Ah 2h 3h 4h 5h 6h
foundation: 11
1: Kh
2:
3: Qh
4:
5: Jh Th 9h
6:
7: 8h 7h
8:
9:
10:
11:
12:
");
    assert!(moves(&p2).contains(&"deal".to_string()));
    let undo = p2.play(Move::Deal).unwrap();
    assert_eq!(undo.dealt, 6);
    let lengths: Vec<usize> = p2.columns().iter().map(|c| c.len()).collect();
    assert_eq!(lengths, [2, 1, 2, 1, 4, 1, 2, 0, 0, 0, 0, 0]);
    assert_eq!(p2.stock_len(), 0);
}

#[test]
fn other_variants_refuse_to_deal_onto_an_empty_column() {
    let p = pos("\
variant: will-o-the-wisp
stock: Ah 2h 3h 4h 5h 6h 7h
foundation: 3
1: Kh
2: Qh
3: Jh
4: Th
5: 9h
6: 8h
7:
");
    assert_eq!(
        p.check(Move::Deal),
        Err(MoveError::EmptyColumnBlocksDeal { column: 6 })
    );
    assert_eq!(
        p.check(Move::Deal).unwrap_err().to_string(),
        "column 7 is empty: fill every column before dealing"
    );
    assert!(!moves(&p).contains(&"deal".to_string()));
    for id in [
        "spider-1suit",
        "spider-2suit",
        "spider-4suit",
        "red-black-spider",
        "spiderette",
        "huge-spider",
    ] {
        assert!(!variant(id).deal_with_empty_column, "{id}");
    }
}

/// A red run of mixed hearts and diamonds across ten columns of Red-Black Spider.
const RED_BLACK: &str = "\
variant: red-black-spider
stock:
foundation: 7
1: Kh Qd Jh Td
2: 9h
3: 8d
4: 7h
5: 6d
6: 5h
7: 4d
8: 3h
9: 2d
10: Ah
";

#[test]
fn red_black_runs_follow_colour_and_discard_is_manual() {
    let mut g = game(RED_BLACK);
    assert_eq!(g.position().movable_run(0), 4, "Kh Qd Jh Td are all red");
    assert_eq!(
        moves(g.position()),
        [
            "2>1:1", "3>2:1", "4>3:1", "5>4:1", "6>5:1", "7>6:1", "8>7:1", "9>8:1", "10>9:1"
        ]
    );
    for c in 2..=10 {
        g.apply(mv(&format!("{c}>1:1"))).unwrap();
    }
    // The run is complete but stays: discarding is the player's move.
    assert_eq!(g.position().columns()[0].len(), 13);
    assert!(!g.is_won());
    assert!(moves(g.position()).contains(&"1>f".to_string()));
    let events = g.apply(mv("1>f")).unwrap();
    assert!(matches!(
        &events[..],
        [
            Event::RunCompleted {
                column: 0,
                slot: 7,
                ..
            },
            Event::Won
        ]
    ));
    assert!(g.is_won());
}

#[test]
fn suit_variants_do_not_move_or_complete_mixed_suit_runs() {
    let text = RED_BLACK.replace("red-black-spider", "spider-4suit");
    let err = Position::parse(&text, &Variants::default())
        .unwrap_err()
        .to_string();
    // Two decks of four suits: the missing cards cannot be seven same-suit runs.
    assert!(err.starts_with("cards do not add up"), "{err}");
    let p = pos("\
variant: spider-4suit
stock:
foundation: 6
1: Kh Qh Jd Td
2: Kd Qd Jh Th
3: 9h
4: 9d
5: 8h 7h 6h 5h 4h 3h 2h Ah
6: 8d 7d 6d 5d 4d 3d 2d Ad
7:
8:
9:
10:
");
    assert_eq!(
        p.movable_run(0),
        2,
        "Jd Td: same suit, but Qh-Jd (both red) breaks the suit"
    );
    assert_eq!(p.movable_run(1), 2);
    assert_eq!(
        p.check(mv("1>7:3")),
        Err(MoveError::NotARun {
            column: 0,
            count: 3,
            movable: 2
        })
    );
    let rb = Position::parse(
        &text_of(&p).replace("spider-4suit", "red-black-spider"),
        &Variants::default(),
    );
    assert_eq!(
        rb.map(|p| p.movable_run(0)),
        Ok(4),
        "the same cards in Red-Black Spider"
    );
}

#[test]
fn manual_discard_is_a_game_option_and_auto_never_lists_n_f() {
    let mut g = game(WISP_HEARTS);
    assert_eq!(g.apply(mv("1>f")), Err(MoveError::DiscardIsAutomatic));
    let p = pos(&WISP_HEARTS.replace("foundation: 3", "discard: manual\nfoundation: 3"));
    assert_eq!(p.discard(), DiscardMode::Manual);
    let mut g = Game::from_position(p, GameOptions::for_variant(&variant("will-o-the-wisp")));
    for m in ["7>6:1", "6>5:3", "5>4:4", "4>3:6", "3>2:7", "2>1:9"] {
        g.apply(mv(m)).unwrap();
    }
    assert_eq!(g.position().columns()[0].len(), 13);
    assert_eq!(moves(g.position()).last().map(String::as_str), Some("1>f"));
    assert!(g.position().to_string().contains("discard: manual\n"));
    assert_eq!(
        g.apply(mv("2>f")),
        Err(MoveError::NoCompletedRun { column: 1 })
    );
}

#[test]
fn auto_discard_position_with_a_completed_run_is_rejected() {
    let text = "variant: will-o-the-wisp\nstock:\nfoundation: 3\n1: Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h 2h Ah\n2:\n3:\n4:\n5:\n6:\n7:\n";
    let err = Position::parse(text, &Variants::default())
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "column 1 has a completed run on top, but discard is automatic (it would already have left)"
    );
}

#[test]
fn auto_discard_position_with_a_completed_run_under_a_card_is_rejected() {
    // No move or deal buries a completed run when discard is automatic, and a move that
    // uncovered one would leave it on the table: `apply` would print a position that does not
    // read back. With manual discard the same cards are a position (a deal buried the run).
    let text = "variant: will-o-the-wisp\nstock:\nfoundation: 2\n1: Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h 2h Ah Ks\n2: Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s As\n3:\n4:\n5:\n6:\n7:\n";
    let err = Position::parse(text, &Variants::default())
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "column 1 has a completed run under other cards, but discard is automatic (it would already have left)"
    );
    let manual = text.replace("foundation: 2", "discard: manual\nfoundation: 2");
    let p = pos(&manual);
    assert!(p.holds_completed_run(0) && !p.has_completed_run(0));
    assert!(!p.holds_completed_run(1));
}

#[test]
fn a_deal_can_complete_a_run() {
    let mut g = game(
        "\
variant: will-o-the-wisp
stock: Ah Qs Js Ts 9s 8s 7s
foundation: 2
1: Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h 2h
2: Ks
3: 6s
4: 5s 4s
5: 3s
6: 2s
7: As
",
    );
    let events = g.apply(Move::Deal).unwrap();
    let run = cards("Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h 2h Ah");
    assert_eq!(
        events,
        vec![
            Event::Dealt {
                cards: vec![
                    (0, "Ah".parse().unwrap()),
                    (1, "Qs".parse().unwrap()),
                    (2, "Js".parse().unwrap()),
                    (3, "Ts".parse().unwrap()),
                    (4, "9s".parse().unwrap()),
                    (5, "8s".parse().unwrap()),
                    (6, "7s".parse().unwrap()),
                ]
            },
            Event::RunCompleted {
                column: 0,
                cards: run,
                slot: 2
            },
        ]
    );
    assert!(g.position().columns()[0].is_empty());
    let back = g.undo().unwrap();
    assert!(matches!(
        &back[0],
        Event::RunRestored {
            column: 0,
            slot: 2,
            ..
        }
    ));
    assert!(matches!(&back[1], Event::Undealt { cards } if cards[0] == (6, "7s".parse().unwrap())));
    assert_eq!(g.position(), g.start());
}

#[test]
fn microsoft_scoring() {
    let mut g = game(WISP_HEARTS);
    let mut options = g.options();
    options.scoring = Scoring::Microsoft;
    g = Game::from_position(g.position().clone(), options);
    assert_eq!(
        g.score(),
        500 + 300,
        "three runs are already in the foundation"
    );
    g.apply(mv("7>6:1")).unwrap();
    assert_eq!(g.score(), 799);
    g.undo().unwrap();
    assert_eq!(g.score(), 798, "an undo costs a point too");
    g.redo().unwrap();
    assert_eq!(g.score(), 797);
    for m in ["6>5:3", "5>4:4", "4>3:6", "3>2:7", "2>1:9"] {
        g.apply(mv(m)).unwrap();
    }
    // 500 - 7 moves (the redo counts as one) - 1 undo + 100 for each of the 4 runs.
    assert_eq!(g.score(), 500 - 7 - 1 + 400);
}

#[test]
fn links_scoring() {
    let g = game(WISP_HEARTS);
    assert_eq!(g.options().scoring, Scoring::Links);
    // Pairs: K-Q, Q-J, J-T, 9-8, 6-5, 3-2 = 6, plus 12 for each of the 3 runs in the foundation.
    assert_eq!(g.score(), 6 + 36);
    let p = pos(RED_BLACK);
    assert_eq!(
        p.links_score(),
        3 + 7 * 12,
        "red-black links count colour pairs"
    );
}

#[test]
fn undo_limit() {
    let p = pos(WISP_HEARTS);
    let options = GameOptions {
        undo_limit: Some(1),
        ..GameOptions::for_variant(p.variant())
    };
    let mut g = Game::from_position(p, options);
    assert_eq!(g.undo(), Err(HistoryError::NothingToUndo));
    g.apply(mv("7>6:1")).unwrap();
    g.apply(mv("6>5:3")).unwrap();
    assert_eq!(g.undos_left(), Some(1));
    g.undo().unwrap();
    assert!(!g.can_undo());
    assert_eq!(g.undo(), Err(HistoryError::UndoLimitReached(1)));
    assert_eq!(g.move_count(), 1);
    g.redo().unwrap();
    assert_eq!(g.redo(), Err(HistoryError::NothingToRedo));
    assert_eq!(
        g.history().map(|m| m.to_string()).collect::<Vec<_>>(),
        ["7>6:1", "6>5:3"]
    );
}

#[test]
fn a_new_move_clears_redo() {
    let mut g = game(WISP_HEARTS);
    g.apply(mv("7>6:1")).unwrap();
    g.undo().unwrap();
    assert!(g.can_redo());
    g.apply(mv("3>2:1")).unwrap();
    assert!(!g.can_redo());
}

#[test]
fn a_stuck_game_has_no_moves() {
    let g = game(
        "\
variant: will-o-the-wisp
stock:
foundation: 3
1: Qh Kh
2: Th Jh
3: 8h 9h
4: 6h 7h
5: 4h 5h
6: 2h 3h
7: Ah
",
    );
    assert_eq!(moves(g.position()), Vec::<String>::new());
    assert!(g.is_stuck());
}

#[test]
fn discard_option_overrides_the_variant_default() {
    let v = variant("spider-4suit");
    let options = GameOptions {
        discard: DiscardMode::Manual,
        ..GameOptions::for_variant(&v)
    };
    let g = Game::new(&v, 1, Numbering::Kpat, options).unwrap();
    assert_eq!(g.position().discard(), DiscardMode::Manual);
    assert!(
        g.position()
            .to_string()
            .starts_with("variant: spider-4suit\ndiscard: manual\nstock: Kc")
    );
}

#[test]
fn a_game_saves_as_a_replay_that_verifies() {
    use arachne_engine::Replay;
    let v = variant("spider-2suit");
    let mut g = Game::new(&v, 11, Numbering::Arachne, GameOptions::for_variant(&v)).unwrap();
    for _ in 0..30 {
        let Some(&m) = g.legal_moves().first() else {
            break;
        };
        g.apply(m).unwrap();
    }
    g.undo().unwrap();
    let text = Replay::of_game(&g, Numbering::Arachne, 11).to_ron();
    let back = Replay::from_ron(&text).unwrap();
    assert_eq!(back.moves.len(), g.move_count());
    let replayed = back.verify(&Variants::default()).unwrap();
    assert_eq!(replayed.position(), g.position());
}

/// A saved game with undos and redos comes back exactly: the undo count (and so the undo
/// limit), the Microsoft score's action count, the redo list and whether it was ever won.
#[test]
fn a_replay_with_undos_and_redos_rebuilds_the_game_exactly() {
    use arachne_engine::{Replay, Step};
    let v = variant("spider-1suit");
    let options = GameOptions {
        undo_limit: Some(3),
        ..GameOptions::for_variant(&v)
    };
    let mut g = Game::new(&v, 5, Numbering::Arachne, options).unwrap();
    for _ in 0..6 {
        let m = g.legal_moves()[0];
        g.apply(m).unwrap();
    }
    g.undo().unwrap();
    g.undo().unwrap();
    g.redo().unwrap();
    assert_eq!(g.steps().len(), 9);
    assert_eq!(g.steps()[6], Step::Undo);
    let replay = Replay::of_game(&g, Numbering::Arachne, 5);
    assert_eq!(replay.version, 2);
    assert_eq!(replay.steps.len(), 9);
    let back = Replay::from_ron(&replay.to_ron()).unwrap();
    assert_eq!(back, replay);
    let mut r = back.verify(&Variants::default()).unwrap();
    assert_eq!(r.position(), g.position());
    assert_eq!(r.undos_used(), 2);
    assert_eq!(r.undos_left(), Some(1));
    assert_eq!(r.score(), g.score());
    assert_eq!(r.score(), 500 - 9);
    assert!(r.can_redo());
    assert_eq!(r.steps(), g.steps());
    // The limit holds across the save: one undo left, then none.
    r.undo().unwrap();
    assert!(r.undo().is_err());
    assert!(!r.was_won());

    // A game without undos is saved as its moves alone (version 1 files read the same way).
    let mut plain = Game::new(&v, 5, Numbering::Arachne, options).unwrap();
    let m = plain.legal_moves()[0];
    plain.apply(m).unwrap();
    assert!(
        Replay::of_game(&plain, Numbering::Arachne, 5)
            .steps
            .is_empty()
    );

    // Steps that do not end with the listed moves are refused.
    let mut wrong = replay.clone();
    wrong.moves.pop();
    assert!(wrong.verify(&Variants::default()).is_err());
    let mut wrong = replay;
    wrong.steps.push("undo".into());
    wrong.steps.push("undo".into());
    assert!(wrong.verify(&Variants::default()).is_err());
}

/// A win undone is still a game that was won: its end was counted once.
#[test]
fn a_won_game_stays_counted_as_won_after_an_undo() {
    let mut g = game(
        "variant: spider-1suit\nstock:\nfoundation: 7\n1: Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s\n2: As\n3:\n4:\n5:\n6:\n7:\n8:\n9:\n10:\n",
    );
    assert!(!g.was_won());
    g.apply("2>1:1".parse().unwrap()).unwrap();
    assert!(g.is_won() && g.was_won());
    g.undo().unwrap();
    assert!(!g.is_won() && g.was_won());
}
