// The model-based test (RapidCheck, stateful): random sequences of requests through
// the engine API (include/folio/repository.h), hand edits of the disk, restarts, power
// losses and failing disks, hand edits made while a read keeps what it looked at
// (scoped_reads.h), each step checked against a reference model (model.h):
// every version's content, the labels of the seed's rules, the working copy, children,
// descendants, queries, ids, the change log, and fsck. A failing sequence is shrunk to
// a minimal one and printed as a script of steps. A second property runs each sequence
// twice with seeded ids (`folio serve --deterministic-ids`) and wants the same ids.
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
#include "model/scoped_reads.h"
#include "storage/id_seed.h"

namespace folio::model {
namespace {

// Every step the model knows; requests weigh more than the rest.
auto AnyStep() {
  return rc::state::gen::execOneOfWithArgs<
      CreateFolder, CreateFolder, CreateDocument, CreateDocument, CreateDocument, CreateDeepFolders, SetDescription,
      Rename, SetContent, Move, DeleteDocument, DeleteVersion, DeleteFolder, DeleteTree, CheckOut, CheckOut, CheckIn,
      CheckIn, CancelCheckOut, ApplyAcl, HandAppend, HandReplace, HandAddFile, HandAddDir, HandRemoveFile,
      HandRemoveDir, HandRenameFile, HandRenameDir, EditDuringScopedRead, Restart, PowerLoss, Faulty, Faulty, Faulty, ReadOnlyLook,
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

// Every id a client can see in the repository `m` describes, one line per object in path
// order: folders' ids, documents' series ids and the ids of all their versions and
// working copy (docs/API.md §14.5: with a seed, these follow from the steps alone).
std::string AllIds(Sut& sut, const Model& m) {
  std::vector<std::string> lines;
  auto add = [&](int h) {
    const std::string path = m.PathOf(h);
    auto o = sut.repo().GetObjectByPath(path);
    if (!o.ok()) {
      lines.push_back(path + " <" + o.status().ToString() + ">");
      return;
    }
    std::string line = path + " " + o->id;
    if (o->base == BaseType::kDocument) {
      line += " series=" + o->series_id;
      auto all = sut.repo().GetAllVersions(o->series_id);
      if (!all.ok()) line += " <" + all.status().ToString() + ">";
      for (const ObjectData& v : all.ok() ? *all : std::vector<ObjectData>{}) line += " " + v.id;
    }
    lines.push_back(std::move(line));
  };
  for (const auto& [h, f] : m.folders) {
    if (h != 0) add(h);
  }
  for (const auto& [h, d] : m.docs) add(h);
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

// Seeds ids for its life and random ids after it (the seed is process-wide).
struct SeedIds {
  explicit SeedIds(uint64_t seed) { storage::SetIdSeed(seed); }
  ~SeedIds() { storage::SetIdSeed(std::nullopt); }
};

}  // namespace

// `folio serve --deterministic-ids` (docs/API.md §14.5): the same steps (requests, hand
// edits, restarts, power losses, failing disks) give the same ids on every run, however
// often a change was staged again. Each generated sequence runs twice on fresh
// repositories from the seed's first id; the ids must be equal and fresh (random ids
// again after the seed is dropped).
TEST_CASE("Model: with seeded ids the same steps give the same ids") {
  const uint64_t seed = EnvOr("FOLIO_MODEL_SEED", std::random_device{}());
  std::cerr << "seeded-ids model test: seed " << seed << " (FOLIO_MODEL_SEED=" << seed << " repeats it)\n";
  rc::detail::TestParams params;
  params.seed = seed;
  params.maxSuccess = static_cast<int>(EnvOr("FOLIO_MODEL_SEQUENCES", 200) / 8);
  params.maxSize = 30;
  params.maxDiscardRatio = 100;
  rc::detail::TestMetadata meta;
  meta.id = meta.description = "seeded ids follow from the steps";
  const auto result = rc::detail::checkTestable(
      [] {
        const auto steps = *rc::state::gen::commands(Model{}, AnyStep());
        Model end;
        rc::state::applyAll(steps, end);
        std::string ids[2];
        for (std::string& run : ids) {
          SeedIds seeded(7);
          Sut sut;
          rc::state::runAll(steps, Model{}, sut);
          run = AllIds(sut, end);
        }
        RC_ASSERT(ids[0] == ids[1]);
        Sut unseeded;
        rc::state::runAll(steps, Model{}, unseeded);
        if (end.folders.size() + end.docs.size() > 1) RC_ASSERT(AllIds(unseeded, end) != ids[0]);
      },
      meta, params);
  rc::detail::printResultMessage(result, std::cerr);
  std::cerr << "\n";
  CHECK(result.template is<rc::detail::SuccessResult>());
}

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
