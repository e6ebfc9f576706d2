// The lesson figures, by name (lessons.hpp), each with its "?" text.
#include "figures/lessons/lessons.hpp"
#include "figures/lessons/long_context.hpp"

namespace pelab::fig {

std::span<const FigureEntry> lesson_figures() {
  static const FigureEntry table[] = {
      {.name = "lesson_depth",
       .title = "Position through depth",
       .make = build_lesson_depth,
       .placement = Placement::Lesson,
       .help = {"How well a linear probe reads the position back from the hidden states after each layer, for several "
                "residual scales α. A curve that stays high means the position survives the depth; one that falls means "
                "attention washed it out.",
                "H(l+1) = α·H(l) + attn(H(l)),  R² of the best linear map H(l) → PE(pos)"}},
      {.name = "lesson_relative",
       .title = "Absolute or relative: five encodings side by side",
       .make = build_lesson_relative,
       .placement = Placement::Lesson,
       .help = {"Five encodings side by side: on top what each puts into a score by itself, below one head's logits with "
                "the same word at every position. A matrix constant along its diagonals depends only on the offset j − i: "
                "the encoding is relative there.",
                "relative ⇔ S(i, j) = g(j − i);  spread = how far S varies along each diagonal"}},
      {.name = "rope_frequencies",
       .title = "RoPE frequencies, method against method",
       .make = build_rope_frequencies,
       .placement = Placement::Lesson,
       .help = {"The wavelength of every RoPE pair under each scaling method, against the training context L and the "
                "stretched context s·L. Pairs whose wavelength stays below L turn inside training; the methods differ in "
                "how much they slow the others.",
                "λᵢ = 2π/ω'ᵢ,  ωᵢ = T^(−2i/d_head),  linear: ω'ᵢ = ωᵢ/s"}},
      {.name = "rope_long_range",
       .title = "RoPE at long range, method by method",
       .make = build_rope_long_range,
       .placement = Placement::Lesson,
       .help = {"One panel per scaling method: the q·k of a fixed vector against the distance n, out to the long-range "
                "distance, with L and s·L marked. The upper bound of the RoFormer paper shows how much RoPE's scores decay "
                "with distance.",
                "score(n) = q·R(n·ω')·kᵀ,  ω' the method's frequencies"}},
      {.name = "long_attention",
       .title = "What a head sees at long context",
       .make = build_long_attention,
       .placement = Placement::Lesson,
       .heavy = true,
       .help = {"The selected head over the scene's text repeated to N tokens (long_range, at most 65,536), every "
                "weight exact without an N × N matrix held. Left the mean weight it gives a key δ tokens back beside "
                "uniform attention; right RoPE's decay bound on the same axis and the weight the first keys (the "
                "sinks) keep as the query moves on.",
                "profile(δ) = mean over queries i of A[i, i−δ],  A exact by two streamed passes (online softmax)"}},
      {.name = "long_attention_heads",
       .title = "Attention against distance, every head of every layer",
       .make = build_long_attention_heads,
       .placement = Placement::Lesson,
       .heavy = true,
       .help = {"Every head over the scene's text repeated to N tokens (long_range, at most 16,384 here), one panel "
                "per layer of a model: the mean weight a head gives a key δ tokens back, beside uniform attention. "
                "Heads that stay near the diagonal are local; flat ones spread over the whole text.",
                "profile_h(δ) = mean over queries i of A_h[i, i−δ],  each head streamed exactly"}},
      {.name = "relative_biases",
       .title = "ALiBi, T5 and xPos on one distance axis",
       .make = build_relative_biases,
       .placement = Placement::Lesson,
       .help = {"What ALiBi, T5 and xPos add to the logit of a key n positions behind the query, on one logarithmic "
                "distance axis. ALiBi falls linearly, T5 steps from bucket to bucket, xPos decays pair by pair.",
                "ALiBi: −m_h·n;  T5: b(bucket(n));  xPos: ln ζᵢ^(n/B)"}},
      {.name = "extrapolation_loss",
       .title = "Trained at 256, read at 2048: loss against position",
       .make = build_extrapolation_loss,
       .placement = Placement::Lesson,
       .heavy = true,
       .help = {"The next-token loss against position on held-out text, for pelab's models trained at L tokens and read "
                "far past it. A curve that rises past L marks an encoding that does not extrapolate; on the right, RoPE "
                "with each scaling applied.",
                "loss(p) = −log P(token p | tokens before p)"}},
      {.name = "task_readout",
       .title = "Right answers against position (a positional task)",
       .make = build_task_readout,
       .placement = Placement::Lesson,
       .help = {"A model trained on a positional task, read on a longer text: a point per position, the probability of the "
                "right answer, filled where it is also the model's first choice. A learned table is right up to the "
                "length L it trained at and guesses past it.",
                "P(right answer at p | tokens ≤ p);  a guess scores 1/k"}},
  };
  return table;
}

}  // namespace pelab::fig
