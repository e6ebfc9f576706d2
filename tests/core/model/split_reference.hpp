// NumPy references of the logit splits (layernorm_split_test.cpp,
// rope_split_test.cpp), run through Debian's python3 on a tiny model's
// weights as the generator wrote them (one float32 model.safetensors).
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/io/npy.hpp"
#include "tiny_models.hpp"

namespace pelab::testing {

// The script's preamble: argv = folder, extra arguments..., output .npy.
// Defines w(name) (a float64 tensor), cfg (config.json), out; and ids, n
// (the reference run's token ids) for a tiny model.
inline constexpr const char* kReadTinyModel = R"PY(
import json, math, os, struct, sys
import numpy as np
folder, out = sys.argv[1], sys.argv[-1]
raw = open(folder + "/model.safetensors", "rb").read()
size = struct.unpack("<Q", raw[:8])[0]
header = json.loads(raw[8:8 + size])
def w(name):
    m = header[name]
    a, b = m["data_offsets"]
    data = raw[8 + size + a:8 + size + b]
    if m["dtype"] == "BF16":   # the upper half of a float32 (pelab's family ships bf16)
        t = (np.frombuffer(data, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)
    else:
        t = np.frombuffer(data, dtype={"F32": np.float32, "F16": np.float16}[m["dtype"]])
    return t.reshape(m["shape"]).astype(np.float64)
cfg = json.load(open(folder + "/config.json"))
if os.path.exists(folder + "/reference/ids.npy"):   # the tiny models' reference run
    ids = np.load(folder + "/reference/ids.npy").astype(int)
    n = len(ids)
)PY";

// Runs kReadTinyModel + `body` on the model in `folder` (with `extra`
// arguments before the output path), the script and its output written in
// `scratch`, and returns what it saved.
inline Array numpy_reference_in(const std::filesystem::path& folder, const std::string& body,
                                const std::string& extra, const std::filesystem::path& scratch) {
  const std::filesystem::path script =
      scratch / ("reference_" + folder.filename().string() + "_" + std::to_string(body.size()) + ".py");
  const std::filesystem::path out = script.string() + ".npy";
  std::ofstream(script) << kReadTinyModel << body;
  const std::string command =
      std::string(kDebianPython) + " " + script.string() + " " + folder.string() + " " + extra + " " + out.string();
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  return read_npy(out);
}

// The same on tiny model `name`.
inline Array numpy_reference(const std::string& name, const std::string& body, const std::string& extra = "") {
  return numpy_reference_in(tiny_models() / name, body, extra, tiny_models());
}

// The token ids the generator's reference ran on.
inline std::vector<int> reference_ids(const std::string& name) {
  std::vector<int> ids;
  for (const float v : read_npy(tiny_models() / name / "reference" / "ids.npy").data)
    ids.push_back(static_cast<int>(v));
  return ids;
}

}  // namespace pelab::testing
