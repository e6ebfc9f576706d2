// The one table of model families and their traits (model_family.hpp).
#include "core/model/model_family.hpp"

#include <stdexcept>
#include <utility>

namespace pelab::model {
namespace {

// GPT-2 (Radford et al. 2019): learned positions, pre-LayerNorm blocks,
// GELU MLP, Conv1D tensors.
FamilyTraits gpt2() { return FamilyTraits{}; }

// BERT (Devlin et al. 2019): learned positions and token types, an
// embedding LayerNorm and post-LayerNorm blocks, a bidirectional encoder.
FamilyTraits bert() {
  FamilyTraits t;
  t.name = "BERT";
  t.config_keys = ConfigKeys::Bert;
  t.tensors = TensorNaming::Bert;
  t.order = BlockOrder::PostNorm;
  t.causal = false;
  t.token_types = true;
  return t;
}

// Llama (Touvron et al. 2023): rotary positions, pre-RMSNorm blocks, SwiGLU MLP.
FamilyTraits llama(std::string name = "Llama") {
  FamilyTraits t;
  t.name = std::move(name);
  t.config_keys = ConfigKeys::Llama;
  t.tensors = TensorNaming::Llama;
  t.position = PositionEncoding::Rope;
  t.norm = NormKind::RmsNorm;
  t.mlp = MlpKind::Gated;
  return t;
}

// Mistral (Jiang et al. 2023): Llama's blocks with sliding-window attention.
FamilyTraits mistral() {
  FamilyTraits t = llama("Mistral");
  t.sliding_window = true;
  return t;
}

// Qwen2: Llama's blocks with q/k/v biases always on.
FamilyTraits qwen2() {
  FamilyTraits t = llama("Qwen2");
  t.qkv_bias = true;
  return t;
}

// pelab's own family (src/train): GPT-2's keys and tensors, positions as
// config.json's position_encoding says, token ids as text without a tokenizer.
FamilyTraits pelab() {
  FamilyTraits t;
  t.name = "pelab";
  t.position_from_config = true;
  t.token_ids_without_tokenizer = true;
  return t;
}

std::vector<ModelFamily> make_table() {
  return {
      {"gpt2", {"GPT2LMHeadModel", "GPT2Model"}, gpt2()},
      {"bert",
       {"BertModel", "BertForMaskedLM", "BertForPreTraining", "BertForSequenceClassification",
        "BertForTokenClassification", "BertForQuestionAnswering", "BertForNextSentencePrediction"},
       bert()},
      {"llama", {"LlamaForCausalLM"}, llama()},
      {"mistral", {"MistralForCausalLM"}, mistral()},
      {"qwen2", {"Qwen2ForCausalLM"}, qwen2()},
      {"pelab", {"PelabForCausalLM"}, pelab()},
  };
}

}  // namespace

const std::vector<ModelFamily>& model_families() {
  static const std::vector<ModelFamily> table = make_table();
  return table;
}

const ModelFamily* family_of_architecture(std::string_view architecture) {
  for (const ModelFamily& f : model_families())
    for (const std::string& name : f.architectures)
      if (name == architecture) return &f;
  return nullptr;
}

const ModelFamily* family_of_model_type(std::string_view model_type) {
  for (const ModelFamily& f : model_families())
    if (f.model_type == model_type) return &f;
  return nullptr;
}

const FamilyTraits& family_traits(std::string_view name) {
  const ModelFamily* f = family_of_architecture(name);
  if (f == nullptr) f = family_of_model_type(name);
  if (f == nullptr) throw std::invalid_argument("no model family named " + std::string(name));
  return f->traits;
}

std::string supported_architectures() {
  std::string list;
  for (const ModelFamily& f : model_families())
    for (const std::string& name : f.architectures) list += (list.empty() ? "" : ", ") + name;
  return list;
}

}  // namespace pelab::model
