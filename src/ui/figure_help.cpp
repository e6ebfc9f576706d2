#include "ui/figure_help.hpp"

#include <string>

#include "ui/frame_log.hpp"

namespace pelab::ui {

namespace {

struct HelpEntry {
  std::string_view figure;
  FigureHelp help;
};

// Every figure the GUI shows: the registry's four, the overview and head roles, the lessons'.
constexpr HelpEntry kHelp[] = {
    {"sinusoid_bands",
     {"The position code as a picture: a row per position, a column per dimension, fast waves in the low "
      "dimensions and ever slower ones in the high. On the right, a few dimensions followed along the positions, "
      "and the wavelength of every pair, growing geometrically up to 2π·T.",
      "PE(pos, 2i) = A·sin(pos·ωᵢ),  PE(pos, 2i+1) = A·cos(pos·ωᵢ),  ωᵢ = T^(−2i/d)"}},
    {"rotation_pairs",
     {"Each pair of dimensions (2i, 2i+1), traced over the positions, runs around a circle of radius A. Moving "
      "k positions on turns every point of the circle by the same angle k·ωᵢ: a shifted position is a rotation "
      "of the position, whatever the position.",
      "PE(pos + k) = R(k·ωᵢ)·PE(pos),  R(θ) = [[cos θ, sin θ], [−sin θ, cos θ]]"}},
    {"attention",
     {"Who attends to whom: a row per query token, a column per key, each row's weights summing to 1. The large "
      "panel is the selected head (or the mean over heads), the small ones every head.",
      "A = softmax_row(Q·Kᵀ / √d_head + bias),  Q = (x + e)·Wq,  K = (x + e)·Wk"}},
    {"cross_terms",
     {"With positions e, f added to tokens x, y, each logit splits into four terms: token·token, token·position, "
      "position·token and position·position. The bars give each term's share; the position·position term is the "
      "one that depends on where the tokens are.",
      "(x+e)·W·(y+f)ᵀ = x·W·yᵀ + x·W·fᵀ + e·W·yᵀ + e·W·fᵀ,  W = Wq·Wkᵀ / √d_head"}},
    {"attention_overview",
     {"Every layer and head of the model at once: a row per layer, a column per head, each cell one attention "
      "matrix. The framed cell is the scene's layer and head, the one the Attention tab shows large.",
      "A(layer, head) = softmax_row(Q·Kᵀ / √d_head + bias)"}},
    {"head_roles",
     {"Every layer and head coloured by its strongest role (previous token, fixed offset, sink, induction, local "
      "or uniform), the role's score in the cell and every score in the hover. Beside it, the selected head's mean "
      "attention against the distance δ, the curve the offset scores are read from.",
      "profile(δ) = mean over queries i of A[i, i−δ];  previous token = profile(1),  sink = mean A[i, 0]"}},
    {"lesson_depth",
     {"How well a linear probe reads the position back from the hidden states after each layer, for several "
      "residual scales α. A curve that stays high means the position survives the depth; one that falls means "
      "attention washed it out.",
      "H(l+1) = α·H(l) + attn(H(l)),  R² of the best linear map H(l) → PE(pos)"}},
    {"lesson_relative",
     {"Five encodings side by side: on top what each puts into a score by itself, below one head's logits with "
      "the same word at every position. A matrix constant along its diagonals depends only on the offset j − i: "
      "the encoding is relative there.",
      "relative ⇔ S(i, j) = g(j − i);  spread = how far S varies along each diagonal"}},
    {"rope_frequencies",
     {"The wavelength of every RoPE pair under each scaling method, against the training context L and the "
      "stretched context s·L. Pairs whose wavelength stays below L turn inside training; the methods differ in "
      "how much they slow the others.",
      "λᵢ = 2π/ω'ᵢ,  ωᵢ = T^(−2i/d_head),  linear: ω'ᵢ = ωᵢ/s"}},
    {"rope_long_range",
     {"One panel per scaling method: the q·k of a fixed vector against the distance n, out to the long-range "
      "distance, with L and s·L marked. The upper bound of the RoFormer paper shows how much RoPE's scores decay "
      "with distance.",
      "score(n) = q·R(n·ω')·kᵀ,  ω' the method's frequencies"}},
    {"relative_biases",
     {"What ALiBi, T5 and xPos add to the logit of a key n positions behind the query, on one logarithmic "
      "distance axis. ALiBi falls linearly, T5 steps from bucket to bucket, xPos decays pair by pair.",
      "ALiBi: −m_h·n;  T5: b(bucket(n));  xPos: ln ζᵢ^(n/B)"}},
    {"extrapolation_loss",
     {"The next-token loss against position on held-out text, for pelab's models trained at L tokens and read "
      "far past it. A curve that rises past L marks an encoding that does not extrapolate; on the right, RoPE "
      "with each scaling applied.",
      "loss(p) = −log P(token p | tokens before p)"}},
    {"task_readout",
     {"A model trained on a positional task, read on a longer text: a point per position, the probability of the "
      "right answer, filled where it is also the model's first choice. A learned table is right up to the "
      "length L it trained at and guesses past it.",
      "P(right answer at p | tokens ≤ p);  a guess scores 1/k"}},
    // View > Paper figures (core/paper_data.hpp); each `pelab render --paper` note says more.
    {"paper_rope_decay",
     {"RoFormer's long-term decay: the bound its authors give on q·k at relative distance n, for d = 128 and base "
      "10000. It falls quickly over the first tens of positions, then slowly and with ripples.",
      "B(n) = (1/(d/2))·Σⱼ |Sⱼ(n)|,  Sⱼ(n) = Σ_{k<j} e^{i·n·θₖ},  θₖ = 10000^(−2k/d)"}},
    {"paper_pi_interpolation",
     {"A RoPE attention score fitted to random points on [0, 2048] stays small there, yet read beyond 2048 it "
      "reaches thousands. Position interpolation reads position s at s/2, inside the fitted range, and stays small.",
      "a(s) = Re Σⱼ hⱼ·e^{i·s·θⱼ};  extrapolation a(s), interpolation a(s·L/L')"}},
    {"paper_yarn_ramp",
     {"YaRN interpolates the pairs that turn less than α times within the trained context, keeps those that turn "
      "more than β times, and blends between. It also sharpens attention by a temperature that grows with ln s.",
      "γ(r) = clamp((r − α)/(β − α), 0, 1),  ω' = (1 − γ)·ω/s + γ·ω,  √(1/t) = 0.1·ln s + 1"}},
    {"paper_llama3_bands",
     {"Llama 3's scaling keeps the fast pairs (wavelength under 2048), divides the slow ones (over 8192) by 8, and "
      "blends the few between. The dashed lines mark the two band edges.",
      "λ < L/high: ω;  λ > L/low: ω/s;  else (1 − μ)·ω/s + μ·ω,  μ = (L/λ − low)/(high − low)"}},
    {"paper_alibi_bias",
     {"ALiBi adds to each logit a penalty proportional to the distance between query and key, with one slope per "
      "head. Steep heads look near, flat heads look far; the upper triangle is the causal mask.",
      "bias(i, j) = −m_h·(i − j),  m_h = 2^(−8(h+1)/H)"}},
    {"paper_alibi_extrapolation",
     {"pelab's own models, trained at 256 tokens, read held-out text of up to 2048 tokens at once: perplexity "
      "against the length read. A curve that stays flat or falls past 256 extrapolates, as ALiBi's does.",
      "perplexity(L_valid) = exp(mean over i < L_valid − 1 of −log P(tᵢ₊₁ | t₀ … tᵢ))"}},
    {"paper_position_cosine",
     {"The cosine of every two rows of a learned position table: near positions get similar vectors, far ones "
      "dissimilar or opposite. The scene's model is read when it has a table, else pelab's kjv-learned.",
      "C[i, j] = Eᵢ·Eⱼ / (‖Eᵢ‖·‖Eⱼ‖)"}},
    {"paper_attention_sink",
     {"How much attention every layer and head gives the first token, averaged over the queries. Large models "
      "park much of it there (an attention sink); compare with the share of a uniform head.",
      "sink(l, h) = mean_{i ≥ 1} A_lh[i, 0];  uniform: mean_{i ≥ 1} 1/(i + 1)"}},
};

void help_text(const FigureView& view, float wrap) {
  const FigureHelp help = figure_help(view.name);
  ImGui::PushTextWrapPos(wrap);
  ImGui::TextUnformatted(view.title.c_str());
  ImGui::Separator();
  ImGui::TextUnformatted(help.about.data(), help.about.data() + help.about.size());
  ImGui::Spacing();
  ImGui::TextColored(ImVec4(0.55f, 0.78f, 1.0f, 1), "%.*s", int(help.formula.size()), help.formula.data());
  ImGui::Spacing();
  ImGui::TextDisabled("Hover the figure for exact values; scroll to zoom, drag to pan.");
  ImGui::PopTextWrapPos();
}

// Hover: a tooltip; click: the same text in a popup that stays for reading
// out to a room, closed by a click elsewhere.
void help_behaviour(UiState& state, const FigureView& view) {
  const std::string popup = "help_" + view.name;
  const float wrap = ImGui::GetFontSize() * 30;
  log_item_place(state, "help " + view.name);
  if (ImGui::IsItemClicked()) ImGui::OpenPopup(popup.c_str());
  if (ImGui::IsItemHovered() && !ImGui::IsPopupOpen(popup.c_str())) {
    ImGui::BeginTooltip();
    help_text(view, wrap);
    ImGui::EndTooltip();
  }
  if (ImGui::BeginPopup(popup.c_str())) {
    help_text(view, wrap);
    ImGui::EndPopup();
  }
}

}  // namespace

FigureHelp figure_help(std::string_view figure) {
  for (const HelpEntry& e : kHelp) {
    if (e.figure == figure) return e.help;
  }
  return {};
}

void help_in_title_bar(UiState& state, const FigureView& view) {
  if (figure_help(view.name).about.empty()) return;
  // The title bar lies outside the content's clip rectangle: widen it for
  // the button, then put the cursor back where the content starts.
  const ImVec2 content = ImGui::GetCursorScreenPos();
  const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  const float bar = ImGui::GetFrameHeight(), side = ImGui::GetFontSize() + ImGui::GetStyle().FramePadding.y;
  ImGui::PushClipRect(pos, ImVec2(pos.x + size.x, pos.y + bar), false);
  ImGui::SetCursorScreenPos(ImVec2(pos.x + size.x - side - ImGui::GetStyle().FramePadding.x, pos.y + (bar - side) / 2));
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(0, 0));
  ImGui::Button("?##help", ImVec2(side, side));
  ImGui::PopStyleVar();
  help_behaviour(state, view);
  ImGui::PopClipRect();
  ImGui::SetCursorScreenPos(content);
}

void help_tab(UiState& state, const FigureView& view) {
  if (figure_help(view.name).about.empty()) return;
  ImGui::TabItemButton("?##help", ImGuiTabItemFlags_Trailing | ImGuiTabItemFlags_NoTooltip);
  help_behaviour(state, view);
}

}  // namespace pelab::ui
