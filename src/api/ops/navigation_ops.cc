// getDescendants and getFolderTree (docs/API.md §7.6): the tree below
// a folder as nested containers, written while the engine walks it.
#include <vector>

#include "api/ops/ops.h"

namespace folio::api::ops {
namespace {

// The most objects one answer holds (docs/API.md §9): the answer is built in memory,
// so its size, and the server's memory, stay bounded.
constexpr uint64_t kMaxTreeObjects = 10000;

// Writes `[{"object": {"object": <object>, "pathSegment": name}, "children": [...]}]`,
// `children` left out for leaves (docs/API.md §4.2). It is handed only what the caller
// may read (acl::GuardedRepository::VisitDescendants).
class ContainerWriter : public TreeVisitor {
 public:
  ContainerWriter(ObjectWriter& objects, JsonWriter& w, bool path_segments)
      : objects_(objects), w_(w), path_segments_(path_segments) {
    w_.BeginArray();
  }
  Status Enter(const ObjectData& object, int64_t) override {
    if (!open_.empty() && !open_.back()) {
      w_.Key("children").BeginArray();
      open_.back() = true;
    }
    w_.BeginObject().Key("object").BeginObject().Key("object");
    objects_.Write(object, w_);
    if (path_segments_) w_.Key("pathSegment").String(object.name);
    w_.EndObject();
    open_.push_back(false);
    return OkStatus();
  }
  Status Leave() override {
    if (open_.back()) w_.EndArray();
    open_.pop_back();
    w_.EndObject();
    return OkStatus();
  }
  void Finish() { w_.EndArray(); }

 private:
  ObjectWriter& objects_;
  JsonWriter& w_;
  bool path_segments_;
  std::vector<bool> open_;  // per entered object: its "children" array is open
};

Result<Response> Tree(Context& ctx, bool folders_only) {
  FOLIO_ASSIGN_OR_RETURN(const ObjectData* folder, ctx.Target());
  if (folder->base != BaseType::kFolder) {
    return InvalidArgument("object '" + folder->id + "' is not a folder: " +
                           std::string(folders_only ? "getFolderTree" : "getDescendants") + " needs a folder");
  }
  TreeRequest request;
  request.folders_only = folders_only;
  request.max_objects = kMaxTreeObjects;
  FOLIO_ASSIGN_OR_RETURN(request.depth, ctx.params.GetInt("depth", -1, -1, INT32_MAX));
  if (request.depth == 0) return InvalidArgument("parameter 'depth' must be -1 (all levels) or at least 1, got 0");
  FOLIO_ASSIGN_OR_RETURN(bool path_segments, ctx.params.GetBool("includePathSegment", false));
  FOLIO_ASSIGN_OR_RETURN(ObjectWriter objects, ObjectWriter::For(ctx));
  std::string body;
  JsonWriter w(body);
  ContainerWriter containers(objects, w, path_segments);
  FOLIO_RETURN_IF_ERROR(ctx.repo->VisitDescendants(*folder, request, containers).status());
  containers.Finish();
  return JsonTextResponse(200, std::move(body));
}

}  // namespace

Result<Response> GetDescendants(Context& ctx) { return Tree(ctx, false); }

Result<Response> GetFolderTree(Context& ctx) { return Tree(ctx, true); }

}  // namespace folio::api::ops
