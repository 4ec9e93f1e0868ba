//! `--capture PATH.png`: deal, wait until the table is at rest, save a screenshot, exit.
use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};
use bevy_tweening::TweenAnim;

use crate::phase10::view::P10Card;
use crate::spider::piles::CardView;

/// Where to save, and how far along the capture is.
#[derive(Resource, Debug)]
pub struct Capture {
    /// The PNG to write.
    pub path: PathBuf,
    quiet_frames: u32,
    state: State,
    frames: u32,
    retries: u32,
}

#[derive(Debug, PartialEq)]
enum State {
    Waiting,
    Shooting,
    Saved(u32),
}

impl Capture {
    /// A capture to `path`.
    pub fn new(path: PathBuf) -> Capture {
        Capture {
            path,
            quiet_frames: 0,
            state: State::Waiting,
            frames: 0,
            retries: 0,
        }
    }
}

/// Adds the capture systems for `path`.
pub fn plugin(app: &mut App, path: PathBuf) {
    app.insert_resource(Capture::new(path))
        // Before the exit systems: the frame that asks to exit still runs the exit's own work.
        .add_systems(Last, capture.before(bevy::window::ExitSystems));
}

fn capture(
    mut commands: Commands,
    mut capture: ResMut<Capture>,
    anims: Query<(), With<TweenAnim>>,
    cards: Query<&Children, Or<(With<CardView>, With<P10Card>)>>,
    all_cards: Query<(), Or<(With<CardView>, With<P10Card>)>>,
    mut exit: MessageWriter<AppExit>,
) {
    capture.frames += 1;
    // Give up rather than hang CI if the table never comes to rest.
    if capture.frames > 3000 {
        tracing::error!("capture: the table did not come to rest");
        exit.write(AppExit::error());
        return;
    }
    match capture.state {
        State::Waiting => {
            let dressed = !all_cards.is_empty() && cards.iter().count() == all_cards.iter().count();
            if anims.is_empty() && dressed {
                capture.quiet_frames += 1;
            } else {
                capture.quiet_frames = 0;
            }
            // A few quiet frames so the last positions and text are on screen.
            if capture.quiet_frames >= 10 {
                let path = capture.path.clone();
                commands.spawn(Screenshot::primary_window()).observe(
                    move |shot: On<ScreenshotCaptured>, mut c: ResMut<Capture>| {
                        // While llvmpipe still compiles the first pipelines a frame can come
                        // out all one colour (black): take it again a little later.
                        if one_colour(&shot.image) && c.retries < 20 {
                            c.retries += 1;
                            c.quiet_frames = 0;
                            c.state = State::Waiting;
                            return;
                        }
                        save_to_disk(path.clone())(shot);
                        c.state = State::Saved(0);
                    },
                );
                capture.state = State::Shooting;
            }
        }
        State::Shooting => {}
        State::Saved(n) => {
            if n >= 2 {
                tracing::info!("capture: saved {}", capture.path.display());
                exit.write(AppExit::Success);
            } else {
                capture.state = State::Saved(n + 1);
            }
        }
    }
}

/// Whether every pixel of the image is the same.
fn one_colour(image: &Image) -> bool {
    let Some(data) = image.data.as_deref() else {
        return true;
    };
    // Screenshots are 4 bytes a pixel (RGBA or BGRA).
    data.len() < 4 || data.chunks_exact(4).all(|p| p == &data[..4])
}
