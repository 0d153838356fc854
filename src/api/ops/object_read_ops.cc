// Object reads (docs/API.md §7.5): object, properties, allowable actions, content,
// children, parents, relationships (renditions and policies: none).
#include <algorithm>
#include <charconv>
#include <mutex>
#include <optional>

#include "api/ascii.h"
#include "api/cmis_names.h"
#include "api/error_response.h"
#include "api/ops/ops.h"
#include "api/properties_form.h"
#include "storage/look_once.h"

namespace folio::api::ops {
namespace {

// The version of document `target` labelled `label` ("1.0", or "pwc" for the working
// copy), read into `other`. Folio's own parameter: a curl user knows labels, not ids.
// Errors: kInvalidArgument if `target` is not a document; kObjectNotFound naming the
// label when the series has no such version.
Result<const ObjectData*> VersionByLabel(Context& ctx, const ObjectData& target, const std::string& label,
                                         std::optional<ObjectData>& other) {
  const std::string where = target.path.empty() ? "'" + target.id + "'" : "'/" + target.path + "'";
  if (target.base != BaseType::kDocument || target.series_id.empty()) {
    return InvalidArgument("parameter 'versionLabel' names a version of a document, and " + where + " is a " +
                           std::string(ToResponseId(ctx.variant, BaseTypeId(target.base))));
  }
  if (label == target.version_label) return &target;
  // Version ids are "{series};{label}" (include/folio/repository.h).
  auto version = ctx.repo->GetObject(target.series_id + ";" + label, acl::Action::kRead);
  if (!version.ok() || (*version)->series_id != target.series_id || (*version)->version_label != label) {
    if (version.ok() || version.status().kind() == ErrorKind::kObjectNotFound ||
        version.status().kind() == ErrorKind::kInvalidArgument) {
      return ObjectNotFound("document " + where + " has no version '" + label + "'");
    }
    return version.status();
  }
  other = **version;
  return &*other;
}

// The version the request asks for (versionLabel, returnVersion, or CmisJS's
// versionSeriesId): the target itself or, for another version, one read into `other`
// (no copy of the target).
Result<const ObjectData*> TargetVersion(Context& ctx, std::optional<ObjectData>& other) {
  if (ctx.params.Has("versionLabel")) {
    if (ctx.params.Has("returnVersion")) {
      return InvalidArgument("parameters 'versionLabel' and 'returnVersion' cannot be combined: give one of them");
    }
    FOLIO_ASSIGN_OR_RETURN(std::string label, ctx.params.GetString("versionLabel"));
    FOLIO_ASSIGN_OR_RETURN(const ObjectData* target, ctx.Target());
    return VersionByLabel(ctx, *target, label, other);
  }
  // CmisJS's getObjectOfLatestVersion sends versionSeriesId (and major) instead of
  // returnVersion (docs/API.md §3.8, consequence 3).
  std::string fallback = "this";
  if (ctx.params.Has("versionSeriesId")) {
    FOLIO_ASSIGN_OR_RETURN(bool major, ctx.params.GetBool("major", false));
    fallback = major ? "latestmajor" : "latest";
    if (!ctx.params.Has("objectId") && !ctx.path_given) {
      FOLIO_ASSIGN_OR_RETURN(std::string series, ctx.params.GetString("versionSeriesId"));
      FOLIO_ASSIGN_OR_RETURN(other, ctx.repo->GetLatestVersion(series, major));
      return &*other;
    }
  }
  FOLIO_ASSIGN_OR_RETURN(const ObjectData* target, ctx.Target());
  if (!ctx.params.Has("returnVersion") && fallback == "this") return target;
  FOLIO_ASSIGN_OR_RETURN(std::string which, ctx.params.GetString("returnVersion", fallback));
  const std::string lower = AsciiToLower(which);
  if (lower == "this") return target;
  if (lower == "latest" || lower == "latestmajor") {
    if (target->base != BaseType::kDocument) return target;
    FOLIO_ASSIGN_OR_RETURN(other, ctx.repo->GetLatestVersion(target->id, lower == "latestmajor"));
    return &*other;
  }
  return InvalidArgument("parameter 'returnVersion' must be this, latest or latestmajor, got '" + which + "'");
}

bool IsPlainFileNameChar(unsigned char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; }

// Content-Disposition with the file name: plain when it is printable ASCII, else an
// ASCII fallback plus RFC 5987 filename* (docs/API.md §7.9).
std::string ContentDisposition(std::string_view disposition, const std::string& name) {
  std::string out(disposition);
  if (name.empty()) return out;
  bool plain = true;
  std::string fallback;
  for (unsigned char c : name) {
    if (IsPlainFileNameChar(c)) {
      fallback.push_back(static_cast<char>(c));
    } else {
      plain = false;
      if (c < 0x80 || (c & 0xC0) == 0xC0) fallback.push_back('_');
    }
  }
  out += "; filename=\"" + fallback + "\"";
  if (!plain) {
    static const char* kHex = "0123456789ABCDEF";
    std::string encoded;
    for (unsigned char c : name) {
      const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
      if (alnum || std::string_view("!#$&+-.^_`|~").find(static_cast<char>(c)) != std::string_view::npos) {
        encoded.push_back(static_cast<char>(c));
      } else {
        encoded += '%';
        encoded += kHex[c >> 4];
        encoded += kHex[c & 15];
      }
    }
    out += "; filename*=UTF-8''" + encoded;
  }
  return out;
}

struct ByteRange {
  uint64_t first = 0;
  uint64_t length = 0;
};

std::optional<uint64_t> ParseU64(std::string_view s) {
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// A single "bytes=a-b", "bytes=a-" or "bytes=-n" range against `size`. nullopt: serve
// everything (no Range, a syntax we ignore, or several ranges: RFC 7233 lets a server
// ignore Range). An unsatisfiable range is an error.
Result<std::optional<ByteRange>> ParseRange(std::string_view header, uint64_t size) {
  if (header.empty() || !StartsWithIgnoreCase(header, "bytes=")) return std::optional<ByteRange>();
  std::string_view spec = header.substr(6);
  if (spec.find(',') != std::string_view::npos) return std::optional<ByteRange>();
  const size_t dash = spec.find('-');
  if (dash == std::string_view::npos) return std::optional<ByteRange>();
  const std::string_view a = spec.substr(0, dash);
  const std::string_view b = spec.substr(dash + 1);
  ByteRange r;
  if (a.empty()) {
    auto n = ParseU64(b);
    if (!n) return std::optional<ByteRange>();
    if (*n == 0 || size == 0) return Status(ErrorKind::kInvalidArgument, "range not satisfiable");
    r.length = std::min(*n, size);
    r.first = size - r.length;
    return std::optional<ByteRange>(r);
  }
  auto first = ParseU64(a);
  if (!first) return std::optional<ByteRange>();
  std::optional<uint64_t> last = b.empty() ? std::optional<uint64_t>(UINT64_MAX) : ParseU64(b);
  if (!last || *last < *first) return std::optional<ByteRange>();
  if (*first >= size) return Status(ErrorKind::kInvalidArgument, "range not satisfiable");
  r.first = *first;
  r.length = std::min(*last, size - 1) - *first + 1;
  return std::optional<ByteRange>(r);
}

}  // namespace

Json AllowableActions(const ObjectData& o, const acl::Checker& checker) {
  // What the caller's permission on the object allows (docs/API.md §11); the folders of
  // a move and the ends of a relationship are checked when the action is asked for.
  const acl::Permission held = checker.On(o);
  const bool read = acl::Grants(held, acl::Permission::kRead);
  const bool write = acl::Grants(held, acl::Permission::kWrite);
  const bool all = acl::Grants(held, acl::Permission::kAll);
  const bool doc = o.base == BaseType::kDocument;
  const bool folder = o.base == BaseType::kFolder;
  const bool root = folder && o.parent_id.empty();
  const bool checked_out = doc && o.properties.value(std::string(kPropIsVersionSeriesCheckedOut), false);
  const bool versionable = doc && !o.properties.value(std::string(kPropVersionLabel), Json()).is_null();
  // Ending a check-out is the holder's (or cmis:all's, or an administrator's).
  const bool ends_check_out = write && o.is_pwc && checker.RequireHolder(o, "check in").ok();
  return Json{{"canDeleteObject", write && !root && (!o.is_pwc || ends_check_out)},
              {"canUpdateProperties", write},
              {"canGetFolderTree", read && folder},
              {"canGetProperties", read},
              {"canGetObjectRelationships", read && o.base != BaseType::kRelationship},
              {"canGetObjectParents", read && !root && o.base != BaseType::kRelationship},
              {"canGetFolderParent", read && folder && !root},
              {"canGetDescendants", read && folder},
              {"canMoveObject", write && !root && o.base != BaseType::kRelationship},
              {"canDeleteContentStream", write && doc && o.content.has_value()},
              {"canCheckOut", write && versionable && !checked_out && !o.is_pwc},
              {"canCancelCheckOut", ends_check_out},
              {"canCheckIn", ends_check_out},
              {"canSetContentStream", write && doc},
              {"canGetAllVersions", read && doc},
              {"canAddObjectToFolder", false},
              {"canRemoveObjectFromFolder", false},
              {"canGetContentStream", read && doc && o.content.has_value()},
              {"canApplyPolicy", false},
              {"canGetAppliedPolicies", false},
              {"canRemovePolicy", false},
              {"canGetChildren", read && folder},
              {"canCreateDocument", write && folder},
              {"canCreateFolder", write && folder},
              {"canCreateRelationship", read && (doc || folder || o.base == BaseType::kItem)},
              {"canCreateItem", write && folder},
              {"canDeleteTree", write && folder && !root},
              {"canGetRenditions", false},
              {"canGetACL", read},
              {"canApplyACL", all}};
}

// The answer of getObject may be given again while the repository still resolves the
// request's target to the very object it was made of: the repository shares one built
// document until its series or version record, its type, its parent folder or its
// visible file changes, in this process or another (and checks that on every lookup),
// and the body depends on nothing else but the request's URL. Only documents are shared
// that way, and an object with secondary types is left out: the renderer reads their
// definitions, which the shared object does not follow.
std::function<bool()> ReuseCheck(const Context& ctx, const ObjectData* answered) {
  const std::shared_ptr<const ObjectData> object = ctx.target_;
  if (!object || object.get() != answered || object->base != BaseType::kDocument) return {};
  const auto secondary = object->properties.find(std::string(kPropSecondaryObjectTypeIds));
  if (secondary != object->properties.end() && !secondary->is_null() && !secondary->empty()) return {};
  // Who the answer was made for must still be who it is made for (docs/API.md §11.2):
  // src/http serves kept answers before authentication, so only in a domain open to
  // anyone (no users), and only while it still is; a signed-in caller's (kept under its
  // credentials, api/response_cache.h) only while the domain's users and groups are
  // the snapshot the caller was authenticated against: the same credentials then stand
  // for the same caller, whose permission depends on nothing else but the object, which
  // the check below follows.
  std::function<bool(const std::shared_ptr<acl::DomainAccounts>&)> same_caller;
  if (ctx.caller.kind() == acl::Caller::Kind::kAnonymousDomain) {
    same_caller = [](const std::shared_ptr<acl::DomainAccounts>& accounts) {
      if (!accounts) return false;
      auto principals = accounts->Current();
      return principals.ok() && !(*principals)->has_users();
    };
  } else if (ctx.caller.kind() == acl::Caller::Kind::kUser && ctx.caller.principals()) {
    same_caller = [seen = ctx.caller.principals()](const std::shared_ptr<acl::DomainAccounts>& accounts) {
      if (!accounts) return false;
      auto principals = accounts->Current();
      return principals.ok() && *principals == seen;
    };
  }
  if (!same_caller || !same_caller(ctx.accounts)) return {};
  // Within a second of a full check, and while no change was committed and the
  // document's file is as it was, the answer is reused on two stats instead of a lookup
  // (Repository::Unchanged).
  struct Checked {
    std::mutex mu;
    std::optional<Repository::Stamp> stamp;  // of the last full check that confirmed the object
  };
  return [repo = ctx.repo, key = ctx.target_key_, by_path = ctx.target_by_path_, object, accounts = ctx.accounts,
          same_caller, checked = std::make_shared<Checked>()] {
    if (!same_caller(accounts)) return false;
    std::optional<Repository::Stamp> last;
    {
      std::lock_guard<std::mutex> lock(checked->mu);
      last = checked->stamp;
    }
    if (last && repo->Unchanged(*last, object->path)) return true;
    // Taken before the lookup: a change after it moves what it holds.
    std::optional<Repository::Stamp> stamp = repo->StampNow(object->path);
    Result<std::shared_ptr<const ObjectData>> now =
        by_path ? repo->GetObjectByPath(key, acl::Action::kRead) : repo->GetObject(key, acl::Action::kRead);
    const bool same = now.ok() && *now == object;
    std::lock_guard<std::mutex> lock(checked->mu);
    checked->stamp = same ? stamp : std::nullopt;
    return same;
  };
}

Result<Response> GetObject(Context& ctx) {
  std::optional<ObjectData> other;
  FOLIO_ASSIGN_OR_RETURN(const ObjectData* object, TargetVersion(ctx, other));
  FOLIO_ASSIGN_OR_RETURN(Response r, ObjectResponse(ctx, *object, 200));
  r.still_valid = ReuseCheck(ctx, object);
  return r;
}

Result<Response> GetProperties(Context& ctx) {
  std::optional<ObjectData> other;
  FOLIO_ASSIGN_OR_RETURN(const ObjectData* object, TargetVersion(ctx, other));
  FOLIO_ASSIGN_OR_RETURN(RenderOptions options, ctx.Rendering());
  std::string body;
  JsonWriter w(body);
  Renderer(ctx.repo.get(), std::move(options)).WriteProperties(*object, w);
  return JsonTextResponse(200, std::move(body));
}

Result<Response> GetAllowableActions(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(const ObjectData* object_ptr, ctx.Target());
  const ObjectData& object = *object_ptr;
  return JsonResponse(200, AllowableActions(object, ctx.Checker()));
}

namespace {

// Whether `type_id` is `ancestor` or, with `subtypes`, below it.
Result<bool> TypeMatches(acl::GuardedRepository& repo, std::string type_id, const std::string& ancestor,
                         bool subtypes) {
  for (int depth = 0; depth < 64; ++depth) {
    if (type_id == ancestor) return true;
    if (!subtypes || type_id.empty()) return false;
    FOLIO_ASSIGN_OR_RETURN(Json type, repo.GetTypeDefinition(type_id));
    const auto parent = type.find("parentId");
    type_id = parent != type.end() && parent->is_string() ? parent->get<std::string>() : "";
  }
  return false;
}

}  // namespace

Result<Response> GetObjectRelationships(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(const ObjectData* object, ctx.Target());
  FOLIO_ASSIGN_OR_RETURN(std::string direction_text, ctx.params.GetString("relationshipDirection", "source"));
  RelationshipDirection direction;
  const std::string lower = AsciiToLower(direction_text);
  if (lower == "source") {
    direction = RelationshipDirection::kSource;
  } else if (lower == "target") {
    direction = RelationshipDirection::kTarget;
  } else if (lower == "either") {
    direction = RelationshipDirection::kEither;
  } else {
    return InvalidArgument("parameter 'relationshipDirection' must be source, target or either, got '" +
                           direction_text + "'");
  }
  FOLIO_ASSIGN_OR_RETURN(std::string type_text, ctx.params.GetString("typeId"));
  const std::string type_id(ToCanonicalTypeId(StripJsonQuotes(type_text)));
  FOLIO_ASSIGN_OR_RETURN(bool subtypes, ctx.params.GetBool("includeSubRelationshipTypes", false));
  if (!type_id.empty()) FOLIO_RETURN_IF_ERROR(ctx.repo->GetTypeDefinition(type_id).status());
  // Only those the caller may read, with both their ends.
  FOLIO_ASSIGN_OR_RETURN(std::vector<ObjectData> all, ctx.repo->GetRelationships(*object, direction));
  std::vector<const ObjectData*> kept;
  for (const ObjectData& r : all) {
    if (type_id.empty()) {
      kept.push_back(&r);
      continue;
    }
    FOLIO_ASSIGN_OR_RETURN(bool match, TypeMatches(*ctx.repo, r.type_id, type_id, subtypes));
    if (match) kept.push_back(&r);
  }
  return ObjectListResponse(ctx, kept);
}

Result<Response> GetNoneOfThem(Context& ctx) {
  FOLIO_RETURN_IF_ERROR(ctx.Target().status());
  return JsonTextResponse(200, "[]");
}

Result<Response> GetContent(Context& ctx) {
  std::optional<ObjectData> other;
  FOLIO_ASSIGN_OR_RETURN(const ObjectData* object_ptr, TargetVersion(ctx, other));
  const ObjectData& object = *object_ptr;
  if (object.base != BaseType::kDocument) {
    return Constraint("object '" + object.id + "' is a " + std::string(BaseTypeId(object.base)) +
                      ", not a document: it has no content stream");
  }
  FOLIO_ASSIGN_OR_RETURN(std::string download, ctx.params.GetString("download", "inline"));
  if (!EqualsIgnoreCase(download, "inline") && !EqualsIgnoreCase(download, "attachment")) {
    return InvalidArgument("parameter 'download' must be inline or attachment, got '" + download + "'");
  }
  FOLIO_ASSIGN_OR_RETURN(ContentStream stream, ctx.repo->OpenContent(object));
  const uint64_t size = stream.file->size();
  Response r;
  r.status = 200;
  r.content_type = stream.info.mime_type.empty() ? "application/octet-stream" : stream.info.mime_type;
  const std::string file_name = stream.info.file_name.empty() ? object.name : stream.info.file_name;
  r.headers.emplace_back("Content-Disposition", ContentDisposition(AsciiToLower(download), file_name));
  r.headers.emplace_back("Accept-Ranges", "bytes");
  auto range = ParseRange(ctx.request.range, size);
  if (!range.ok()) {
    FOLIO_ASSIGN_OR_RETURN(bool suppress, ctx.params.GetBool("suppressResponseCodes", false));
    Response error = MakeTransportErrorResponse(
        TransportError::kRangeNotSatisfiable,
        "range '" + ctx.request.range + "' is not satisfiable: the content has " + std::to_string(size) + " bytes",
        suppress);
    error.headers.emplace_back("Content-Range", "bytes */" + std::to_string(size));
    return error;
  }
  r.offset = 0;
  r.length = size;
  if (*range) {
    r.status = 206;
    r.offset = (*range)->first;
    r.length = (*range)->length;
    r.headers.emplace_back("Content-Range", "bytes " + std::to_string(r.offset) + "-" +
                                                std::to_string(r.offset + r.length - 1) + "/" + std::to_string(size));
  }
  r.stream = std::move(stream.file);
  return r;
}

namespace {

// The body of a getChildren answer (§4.2: {"objects": [...], "hasMoreItems", "numItems"}),
// made as it is sent: one child is built, written and dropped at a time, so that a page
// of 10,000 children takes what one part of its text does (bench/RESULTS.md). numItems
// and hasMoreItems come after the objects, once the cursor knows them.
class ChildrenBody final : public BodyProducer {
 public:
  ChildrenBody(std::shared_ptr<acl::GuardedRepository> repo, std::unique_ptr<ChildrenCursor> cursor,
               ObjectWriter writer)
      : repo_(std::move(repo)), cursor_(std::move(cursor)), writer_(std::move(writer)), w_(text_) {}

  Result<bool> Next(std::string& out) override {
    // The children share their folder's records and adoption tables: each file is
    // looked at once per part (an edit by hand made meanwhile is the next part's). The
    // first part is made inside GetChildren's scope, which opened the cursor: it goes on
    // with what that scope looked at.
    std::optional<storage::LookOnce> look_once;
    if (storage::LookOnce::Current() == nullptr) look_once.emplace();
    if (!begun_) {
      w_.BeginObject().Key("objects").BeginArray();
      begun_ = true;
    }
    while (text_.size() < kPart) {
      auto child = cursor_->Next();
      if (!child.ok()) return child.status();  // src/http logs it, and cuts the answer short
      if (!*child) {
        w_.EndArray().Key("hasMoreItems").Bool(cursor_->has_more());
        w_.Key("numItems").Int(static_cast<int64_t>(cursor_->total())).EndObject();
        out.append(text_);
        return false;
      }
      w_.BeginObject().Key("object");
      writer_.Write(**child, w_);
      w_.Key("pathSegment").String((*child)->name).EndObject();
    }
    out.append(text_);
    text_.clear();  // w_ writes on into text_: its state (the open containers) is its own
    return true;
  }

 private:
  static constexpr size_t kPart = 64 * 1024;
  std::shared_ptr<acl::GuardedRepository> repo_;  // the cursor's and the writer's (a Renderer holds a raw pointer)
  std::unique_ptr<ChildrenCursor> cursor_;
  ObjectWriter writer_;
  std::string text_;
  JsonWriter w_;
  bool begun_ = false;
};

}  // namespace

Result<Response> GetChildren(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(const ObjectData* folder_ptr, ctx.Target());
  const ObjectData& folder = *folder_ptr;
  if (folder.base != BaseType::kFolder) return InvalidArgument("object '" + folder.id + "' is not a folder");
  FOLIO_ASSIGN_OR_RETURN(int64_t max, ctx.params.GetInt("maxItems", 100, 0, 10000));
  FOLIO_ASSIGN_OR_RETURN(int64_t skip, ctx.params.GetInt("skipCount", 0, 0, INT64_MAX));
  FOLIO_ASSIGN_OR_RETURN(std::string order_by, ctx.params.GetString("orderBy"));
  ChildOrder order;
  if (!order_by.empty()) {
    // One column (the engine orders by one key); the first of a list decides.
    std::string_view first = order_by;
    first = first.substr(0, first.find(','));
    while (!first.empty() && first.front() == ' ') first.remove_prefix(1);
    const size_t space = first.find(' ');
    const std::string_view column = first.substr(0, space);
    std::string_view direction = space == std::string_view::npos ? "" : first.substr(space + 1);
    while (!direction.empty() && direction.front() == ' ') direction.remove_prefix(1);
    while (!direction.empty() && direction.back() == ' ') direction.remove_suffix(1);
    const std::string_view id = ToCanonicalPropertyId(column);
    if (id == kPropName) {
      order.key = ChildOrderKey::kName;
    } else if (id == kPropCreationDate) {
      order.key = ChildOrderKey::kCreationDate;
    } else if (id == kPropLastModificationDate) {
      order.key = ChildOrderKey::kLastModificationDate;
    } else {
      return InvalidArgument("parameter 'orderBy': cannot order by '" + std::string(column) +
                             "'; use cmis:name, cmis:creationDate or cmis:lastModificationDate");
    }
    if (EqualsIgnoreCase(direction, "DESC")) {
      order.descending = true;
    } else if (!direction.empty() && !EqualsIgnoreCase(direction, "ASC")) {
      return InvalidArgument("parameter 'orderBy': direction must be ASC or DESC, got '" + std::string(direction) +
                             "'");
    }
  }
  // Only the children the caller may read, paged and counted among those.
  const storage::LookOnce look_once;  // see ChildrenBody::Next
  FOLIO_ASSIGN_OR_RETURN(std::unique_ptr<ChildrenCursor> cursor,
                         ctx.repo->OpenChildren(folder, static_cast<uint64_t>(skip), static_cast<uint64_t>(max),
                                                order));
  FOLIO_ASSIGN_OR_RETURN(ObjectWriter writer, ObjectWriter::For(ctx));
  auto body = std::make_unique<ChildrenBody>(ctx.repo, std::move(cursor), std::move(writer));
  // The first part is made here, so that a page that fits in it is answered whole (with
  // a Content-Length), and an error before the first child is answered as an error.
  std::string first;
  FOLIO_ASSIGN_OR_RETURN(bool more, body->Next(first));
  Response r = JsonTextResponse(200, std::move(first));
  if (more) r.producer = std::move(body);
  return r;
}

Result<Response> GetParent(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(const ObjectData* object_ptr, ctx.Target());
  const ObjectData& object = *object_ptr;
  if (object.base != BaseType::kFolder) {
    return InvalidArgument("object '" + object.id + "' is not a folder: use getObjectParents");
  }
  FOLIO_ASSIGN_OR_RETURN(std::optional<ObjectData> parent, ctx.repo->GetFolderParent(object));
  if (!parent) return InvalidArgument("the root folder has no parent");
  return ObjectResponse(ctx, *parent, 200);
}

Result<Response> GetParents(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(const ObjectData* object_ptr, ctx.Target());
  const ObjectData& object = *object_ptr;
  FOLIO_ASSIGN_OR_RETURN(std::vector<ObjectData> parents, ctx.repo->GetParents(object));  // readable ones
  FOLIO_ASSIGN_OR_RETURN(ObjectWriter writer, ObjectWriter::For(ctx));
  std::string body;
  JsonWriter w(body);
  w.BeginArray();
  for (const ObjectData& p : parents) {
    w.BeginObject().Key("object");
    writer.Write(p, w);
    w.Key("relativePathSegment").String(object.name).EndObject();
  }
  w.EndArray();
  return JsonTextResponse(200, std::move(body));
}

}  // namespace folio::api::ops
