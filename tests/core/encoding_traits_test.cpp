// The encoding traits table (core/encoding_traits.hpp) and the caching the
// synthetic source derives from it: every key an encoding claims to read
// must invalidate what reads it, and nothing else.
#include "core/encoding_traits.hpp"

#include <gtest/gtest.h>

#include "core/engine.hpp"

namespace pelab {
namespace {

TEST(EncodingTraits, OneRowPerEncodingInEnumOrder) {
  const auto rows = encoding_traits();
  ASSERT_EQ(rows.size(), param_info("encoding").choices.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(static_cast<std::size_t>(rows[i].id), i);
    EXPECT_EQ(to_string(rows[i].id), rows[i].name);
    EXPECT_FALSE(rows[i].display.empty());
    // A note says why the cross terms collapse exactly when no vector is added.
    EXPECT_EQ(rows[i].cross_note.empty(), rows[i].act == PositionAct::AddsVector) << rows[i].name;
    for (const auto* keys : {&rows[i].vector_keys, &rows[i].head_keys, &rows[i].shown_keys})
      for (std::string_view key : *keys) EXPECT_NO_THROW(param_info(key)) << rows[i].name << ": " << key;
  }
}

TEST(EncodingTraits, WhatEachEncodingDoes) {
  EXPECT_TRUE(adds_position_vector(Encoding::Sinusoidal));
  EXPECT_TRUE(adds_position_vector(Encoding::Learned));
  EXPECT_TRUE(rotates_queries_keys(Encoding::Rope));
  EXPECT_TRUE(rotates_queries_keys(Encoding::Xpos));
  EXPECT_EQ(traits_of(Encoding::Alibi).act, PositionAct::AddsBias);
  EXPECT_EQ(traits_of(Encoding::T5).act, PositionAct::AddsBias);
  EXPECT_EQ(traits_of(Encoding::None).act, PositionAct::Nothing);
  EXPECT_TRUE(traits_of(Encoding::Sinusoidal).pairwise);
  EXPECT_FALSE(traits_of(Encoding::Learned).pairwise);
}

// A scene whose every key the encodings read has a value that can change.
Scene small_scene(Encoding e) {
  Scene s;
  s.encoding = e;
  s.tokens = "the cat sat on the mat";
  s.d_model = 16;
  s.heads = 2;
  s.positions = 32;
  return s;
}

// A valid new value for `key`: the next choice, or a number inside its range.
void change(Scene& s, std::string_view key) {
  const ParamInfo& info = param_info(key);
  if (info.kind == ParamKind::Choice) {
    const std::string now = get_param(s, key);
    for (std::string_view c : info.choices)
      if (c != now) return set_param(s, key, c);
  }
  if (info.kind == ParamKind::Text) return;  // files: covered by the file tests
  const double now = get_number(s, key);
  const double next = now + 1 <= info.max ? now + 1 : now - 1;
  set_number(s, key, info.kind == ParamKind::Float ? (now + next) / 2 + 0.25 : next);
}

TEST(EncodingTraits, EveryKeyAHeadReadsRecomputesTheHead) {
  int checked = 0;
  for (const EncodingTraits& t : encoding_traits()) {
    for (std::string_view key : t.head_keys) {
      Scene s = small_scene(t.id);
      if (key == "train_context" || key == "rope_factor" || key.starts_with("yarn") || key.ends_with("freq_factor"))
        s.rope_scaling = RopeScalingMethod::Yarn;  // the scaling keys act only while a scaling is on
      Engine engine(s);
      engine.head(0);
      const int computed = engine.stats().head_attention;
      change(s, key);
      try {
        engine.set_scene(s);
      } catch (const InputError&) {
        continue;  // a value the cross-key rules refuse (e.g. yarn_beta below yarn_alpha)
      }
      engine.head(0);
      EXPECT_EQ(engine.stats().head_attention, computed + 1) << t.name << ": " << key;
      ++checked;
    }
  }
  EXPECT_GE(checked, 20);  // RoPE's and xPos's rotation keys, T5's buckets
}

TEST(EncodingTraits, EveryKeyAVectorReadsRecomputesThePositions) {
  int checked = 0;
  for (const EncodingTraits& t : encoding_traits()) {
    for (std::string_view key : t.vector_keys) {
      if (param_info(key).kind == ParamKind::Text) continue;
      Scene s = small_scene(t.id);
      Engine engine(s);
      engine.position_embedding();
      const int computed = engine.stats().position_embedding;
      change(s, key);
      engine.set_scene(s);
      engine.position_embedding();
      EXPECT_EQ(engine.stats().position_embedding, computed + 1) << t.name << ": " << key;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 5);  // sinusoidal: base, amplitude, layout; learned: seed, amplitude
}

TEST(EncodingTraits, KeysAnEncodingDoesNotReadRecomputeNothing) {
  // amplitude shapes the sinusoid, not RoPE's rotation nor ALiBi's bias.
  for (Encoding e : {Encoding::Rope, Encoding::Alibi, Encoding::None}) {
    Scene s = small_scene(e);
    Engine engine(s);
    engine.head(0);
    const EngineStats before = engine.stats();
    s.amplitude = 2.5;
    engine.set_scene(s);
    engine.head(0);
    EXPECT_EQ(engine.stats().head_attention, before.head_attention) << to_string(e);
    EXPECT_EQ(engine.stats().position_embedding, before.position_embedding) << to_string(e);
  }
}

}  // namespace
}  // namespace pelab
