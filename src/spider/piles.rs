//! The view's copy of Spider's piles: which card entity lies where, kept in step with the
//! engine's events, and where a card at rest belongs.
use arachne_engine::Card;
use bevy::prelude::*;

use crate::cards::motion::CardPose;
use crate::spider::layout::{Layout, PileId, TableShape};

/// A card on the table, where the engine has it.
#[derive(Component, Clone, Debug, PartialEq)]
#[component(clone_behavior = Ignore)]
pub struct CardView {
    /// The card.
    pub card: Card,
    /// Its pile.
    pub pile: PileId,
    /// Its index in the pile (0 = bottom).
    pub index: usize,
    /// Whether the engine has it face up.
    pub face_up: bool,
}

/// The view's copy of the piles, updated from the engine's events only.
#[derive(Resource, Default, Debug, Clone)]
#[component(clone_behavior = Ignore)]
pub struct Piles {
    /// The stock, next card to deal last.
    pub stock: Vec<Entity>,
    /// Columns, bottom card first.
    pub columns: Vec<Vec<Entity>>,
    /// Face-down cards at the bottom of each column.
    pub face_down: Vec<usize>,
    /// Completed runs, King first.
    pub foundations: Vec<Vec<Entity>>,
    /// Runs a won game has.
    pub slots: usize,
    /// Cards in the stock at the start.
    pub stock_capacity: usize,
}

impl Piles {
    /// The shape the layout needs.
    pub fn shape(&self) -> TableShape {
        TableShape {
            columns: self
                .columns
                .iter()
                .zip(&self.face_down)
                .map(|(c, &d)| (c.len(), d))
                .collect(),
            stock: self.stock.len(),
            stock_capacity: self.stock_capacity,
            foundations: self.foundations.len(),
            foundation_slots: self.slots,
        }
    }

    /// Every card with its pile and index.
    pub fn placed(&self) -> impl Iterator<Item = (Entity, PileId, usize)> + '_ {
        let stock = self
            .stock
            .iter()
            .enumerate()
            .map(|(i, &e)| (e, PileId::Stock, i));
        let columns = self.columns.iter().enumerate().flat_map(|(c, col)| {
            col.iter()
                .enumerate()
                .map(move |(i, &e)| (e, PileId::Column(c as u8), i))
        });
        let foundations = self.foundations.iter().enumerate().flat_map(|(s, run)| {
            run.iter()
                .enumerate()
                .map(move |(i, &e)| (e, PileId::Foundation(s as u8), i))
        });
        stock.chain(columns).chain(foundations)
    }
}

/// Where and how a card rests.
pub fn rest_pose(layout: &Layout, shape: &TableShape, view: &CardView) -> CardPose {
    CardPose {
        translation: layout.position(shape, view.pile, view.index),
        flip: 1.0,
        face_shown: view.face_up,
    }
}
