//! The face engines of this process, one per model pair (`faces.model_pair`). The
//! configured pair is loaded at start and analyses the photos of new events; an event
//! keeps the pair that made its faces (`events.model_pair`) until `raceshot faces reindex`
//! moves it, so a process may also need another pair: that one is loaded the first time an
//! event asks for it, and kept.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use anyhow::Context;
use raceshot_store::events::Event;
use raceshot_vision::testing::FakeFaces;
use raceshot_vision::{FaceAnalyzer, FaceEngine, FaceEngineConfig, ModelPair};

pub struct FaceModels {
    config: FaceEngineConfig,
    models: Models,
    loaded: Mutex<HashMap<ModelPair, Arc<dyn FaceAnalyzer>>>,
    /// Serialises loading, so that two jobs asking at once load a pair once.
    loading: tokio::sync::Mutex<()>,
}

/// What reads the photos: the real models, or stand-ins that need no model files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Models {
    /// The face engine and bib reader the configuration names (`make models`).
    Real,
    /// [`raceshot_vision::testing`]'s: for tests that are not about the models.
    StandIns,
}

/// The pairs an event's photos are analysed by now: its own (the configured one for an
/// event without photos yet) and, while it moves, the one it moves to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventPairs {
    pub pair: ModelPair,
    pub next: Option<ModelPair>,
}

impl FaceModels {
    /// The models of `config` with the configured pair's engine, loaded already.
    pub fn new(config: FaceEngineConfig, models: Models, engine: Arc<dyn FaceAnalyzer>) -> Self {
        let loaded = HashMap::from([(config.model_pair, engine)]);
        Self {
            config,
            models,
            loaded: Mutex::new(loaded),
            loading: tokio::sync::Mutex::new(()),
        }
    }

    /// The pair new events are analysed by.
    pub fn configured(&self) -> ModelPair {
        self.config.model_pair
    }

    fn loaded_engine(&self, pair: ModelPair) -> Option<Arc<dyn FaceAnalyzer>> {
        self.loaded
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&pair)
            .cloned()
    }

    /// `pair`'s engine, loaded on first use.
    pub async fn engine(&self, pair: ModelPair) -> anyhow::Result<Arc<dyn FaceAnalyzer>> {
        if let Some(engine) = self.loaded_engine(pair) {
            return Ok(engine);
        }
        let _loading = self.loading.lock().await;
        if let Some(engine) = self.loaded_engine(pair) {
            return Ok(engine);
        }
        let (config, models) = (self.config.for_pair(pair), self.models);
        let engine = tokio::task::spawn_blocking(move || load(&config, models)).await??;
        self.loaded
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(pair, engine.clone());
        Ok(engine)
    }

    /// The pairs `event`'s photos are analysed by now.
    pub fn pairs_of(&self, event: &Event) -> anyhow::Result<EventPairs> {
        Ok(EventPairs {
            pair: match &event.model_pair {
                Some(name) => parse(name)?,
                None => self.configured(),
            },
            next: event.reindex_to.as_deref().map(parse).transpose()?,
        })
    }

    /// The pair `event` is searched with, and its engine.
    pub async fn of_event(
        &self,
        event: &Event,
    ) -> anyhow::Result<(ModelPair, Arc<dyn FaceAnalyzer>)> {
        let pair = self.pairs_of(event)?.pair;
        Ok((pair, self.engine(pair).await?))
    }
}

/// The similarity a search of `pair`'s faces matches at: the event's threshold, raised to
/// the pair's least ([`ModelPair::least_threshold`]).
pub fn threshold(event_threshold: f64, pair: ModelPair) -> f32 {
    (event_threshold as f32).max(pair.least_threshold())
}

/// The similarity a search of `pair`'s faces matches at with the selfie's distant view
/// ([`raceshot_vision::FaceEngine::embed_distant`]): [`threshold`], raised to the pair's least
/// for that view ([`ModelPair::distant_least_threshold`]).
pub fn distant_threshold(event_threshold: f64, pair: ModelPair) -> f32 {
    threshold(event_threshold, pair).max(pair.distant_least_threshold())
}

/// A pair's name as the store holds it.
pub fn parse(name: &str) -> anyhow::Result<ModelPair> {
    name.parse()
        .map_err(|_| anyhow::anyhow!("the store names an unknown face model pair {name:?}"))
}

/// Loads the engine of `config`'s pair (a blocking call: the models are read and compiled).
pub fn load(config: &FaceEngineConfig, models: Models) -> anyhow::Result<Arc<dyn FaceAnalyzer>> {
    let pair = config.model_pair;
    Ok(match models {
        Models::Real => {
            Arc::new(FaceEngine::load(config.clone()).with_context(|| {
                format!("loading the face models of {pair} (run `make models`)")
            })?)
        }
        Models::StandIns => Arc::new(FakeFaces::new(config)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_with_wide_strangers_raises_the_events_threshold() {
        assert_eq!(threshold(0.35, ModelPair::InsightFace), 0.35);
        assert_eq!(threshold(0.35, ModelPair::YuNetSFace), 0.47);
        assert_eq!(threshold(0.6, ModelPair::YuNetSFace), 0.6);
    }

    #[test]
    fn the_distant_view_matches_at_no_less_than_its_own_least() {
        assert_eq!(distant_threshold(0.35, ModelPair::InsightFace), 0.35);
        assert_eq!(distant_threshold(0.25, ModelPair::InsightFace), 0.30);
        assert_eq!(distant_threshold(0.35, ModelPair::YuNetSFace), 0.49);
        assert_eq!(distant_threshold(0.6, ModelPair::YuNetSFace), 0.6);
    }
}
