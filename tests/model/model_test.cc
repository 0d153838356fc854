// The model-based test (RapidCheck, stateful): random sequences of requests through
// the engine API (include/folio/repository.h), hand edits of the disk, restarts, power
// losses and failing disks, each step checked against a reference model (model.h):
// every version's content, the labels of the seed's rules, the working copy, children,
// descendants, queries, ids, the change log, and fsck. A failing sequence is shrunk to
// a minimal one and printed as a script of steps.
//
// CI runs a few hundred sequences. A long campaign (README, "Tests"):
//   FOLIO_MODEL_STEPS=100000 build/tests/folio_tests -tc='Model:*'
// FOLIO_MODEL_SEED=N repeats a run (the seed is printed at the start of each).
#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <random>
#include <rapidcheck.h>
#include <rapidcheck/state.h>

#include "model/faults.h"

namespace folio::model {
namespace {

// Every step the model knows; requests weigh more than the rest.
auto AnyStep() {
  return rc::state::gen::execOneOfWithArgs<
      CreateFolder, CreateFolder, CreateDocument, CreateDocument, CreateDocument, CreateDeepFolders, SetDescription,
      Rename, SetContent, Move, DeleteDocument, DeleteVersion, DeleteFolder, DeleteTree, CheckOut, CheckOut, CheckIn,
      CheckIn, CancelCheckOut, ApplyAcl, HandAppend, HandReplace, HandAddFile, HandAddDir, HandRemoveFile,
      HandRemoveDir, HandRenameFile, HandRenameDir, Restart, PowerLoss, Faulty, Faulty, Faulty, ReadOnlyLook,
      DamageRecord>();
}

uint64_t EnvOr(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

// Runs `sequences` random sequences of at most `max_steps` steps from `seed`; on a
// failure, RapidCheck shrinks it and prints the minimal sequence. True on success.
bool RunSequences(uint64_t seed, int sequences, int max_steps) {
  rc::detail::TestParams params;
  params.seed = seed;
  params.maxSuccess = sequences;
  params.maxSize = max_steps;
  params.maxDiscardRatio = 100;
  rc::detail::TestMetadata meta;
  meta.id = meta.description = "the repository agrees with the model";
  const auto result = rc::detail::checkTestable(
      [] {
        Sut sut;
        rc::state::check(Model{}, sut, AnyStep());
      },
      meta, params);
  rc::detail::printResultMessage(result, std::cerr);
  std::cerr << "\n";
  return result.template is<rc::detail::SuccessResult>();
}

}  // namespace

TEST_CASE("Model: requests, hand edits, restarts and failing disks agree with the reference model") {
  const uint64_t steps = EnvOr("FOLIO_MODEL_STEPS", 0);  // 0: the CI-sized run
  uint64_t seed = EnvOr("FOLIO_MODEL_SEED", std::random_device{}());
  const auto start = std::chrono::steady_clock::now();
  Sut::StepsRun() = 0;
  bool ok = true;
  int runs = 0;
  do {
    std::cerr << "model test: seed " << seed << " (FOLIO_MODEL_SEED=" << seed << " repeats it)\n";
    ok = RunSequences(seed, steps ? 100 : static_cast<int>(EnvOr("FOLIO_MODEL_SEQUENCES", 200)), 40);
    ++runs;
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  } while (ok && Sut::StepsRun() < steps);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cerr << "model test: " << Sut::StepsRun() << " steps in " << runs << " runs, " << seconds << " s\n";
  CHECK(ok);
}

}  // namespace folio::model
