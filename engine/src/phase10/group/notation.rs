//! The text forms of groups and hits (`set:7 r7 b7 W`, `run:3..6 r3 y4 W b6`, `W=8`), printed
//! canonically and parsed ignoring case, as `shared/spec/phase10.md` writes them.

use std::fmt;
use std::str::FromStr;

use super::super::card::{Card, Colour, MAX_VALUE, MIN_VALUE};
use super::{Declaration, Group, GroupError, HitCard, check_declaration};

impl fmt::Display for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.decl)?;
        for c in &self.cards {
            write!(f, " {c}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

fn parse_value(s: &str) -> Option<u8> {
    if s.is_empty() || s.len() > 2 || !s.bytes().all(|b| b.is_ascii_digit()) || s.starts_with('0') {
        return None;
    }
    s.parse().ok()
}

impl FromStr for Declaration {
    type Err = GroupError;

    fn from_str(s: &str) -> Result<Declaration, GroupError> {
        let syntax = || GroupError::Syntax(s.to_string());
        let (kind, rest) = s.split_once(':').ok_or_else(syntax)?;
        let decl = match kind.to_ascii_lowercase().as_str() {
            "set" => Declaration::Set(parse_value(rest).ok_or_else(syntax)?),
            "run" => {
                let (a, b) = rest.split_once("..").ok_or_else(syntax)?;
                Declaration::Run(
                    parse_value(a).ok_or_else(syntax)?,
                    parse_value(b).ok_or_else(syntax)?,
                )
            }
            "colour" | "color" => {
                let mut chars = rest.chars();
                let c = chars
                    .next()
                    .and_then(Colour::from_letter)
                    .ok_or_else(syntax)?;
                if chars.next().is_some() {
                    return Err(syntax());
                }
                Declaration::Colour(c)
            }
            _ => return Err(syntax()),
        };
        check_declaration(decl)?;
        Ok(decl)
    }
}

impl FromStr for Group {
    type Err = GroupError;

    fn from_str(s: &str) -> Result<Group, GroupError> {
        let mut words = s.split_whitespace();
        let decl: Declaration = words
            .next()
            .ok_or_else(|| GroupError::Syntax(s.to_string()))?
            .parse()?;
        let cards = words.map(str::parse).collect::<Result<Vec<Card>, _>>()?;
        Group::new(decl, cards)
    }
}

impl fmt::Display for HitCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.stands_for {
            Some(v) => write!(f, "{}={v}", self.card),
            None => write!(f, "{}", self.card),
        }
    }
}

impl fmt::Debug for HitCard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for HitCard {
    type Err = GroupError;

    fn from_str(s: &str) -> Result<HitCard, GroupError> {
        match s.split_once('=') {
            None => Ok(HitCard::plain(s.parse()?)),
            Some((c, v)) => {
                let card: Card = c.parse()?;
                let value = parse_value(v)
                    .filter(|v| (MIN_VALUE..=MAX_VALUE).contains(v))
                    .ok_or_else(|| GroupError::Syntax(s.to_string()))?;
                if !card.is_wild() {
                    return Err(GroupError::Syntax(s.to_string()));
                }
                Ok(HitCard::joker_as(value))
            }
        }
    }
}
