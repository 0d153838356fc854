// getContentChanges (docs/API.md §7.12): the repository's change
// log as objects with changeEventInfo, with the token rules of CMIS 1.1.
#include <charconv>

#include "api/cmis_names.h"
#include "api/ops/ops.h"
#include "api/properties_form.h"
#include "storage/datetime.h"

namespace folio::api::ops {
namespace {

// The token parameter: absent or "" means from the oldest event kept (0).
Result<uint64_t> TokenParam(const Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(std::string text, ctx.params.GetString("changeLogToken"));
  const std::string t = StripJsonQuotes(text);  // owns the bytes: a view of the temporary dangled
  if (t.empty()) return uint64_t{0};
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size() || v == 0) {
    return InvalidArgument("parameter 'changeLogToken' must be a token this repository gave (a positive integer), "
                           "got '" + text + "'");
  }
  return v;
}

// The properties an event gives by itself: the object's id and types.
Json EventProperties(const ChangeEventInfo& e) {
  return Json{{kPropObjectId, e.object_id}, {kPropBaseTypeId, e.base_type_id}, {kPropObjectTypeId, e.type_id}};
}

// The object of an event: as it is now (includeProperties or includeACL), or only what
// the event itself says: its id and types. A deleted object, or one gone since, is the
// latter, and `*exists` says which.
Result<ObjectData> EventObject(Context& ctx, const ChangeEventInfo& e, bool now_wanted, bool* exists) {
  *exists = false;
  if (now_wanted && e.type != "deleted") {
    auto now = ctx.repo->GetObject(e.object_id);
    if (now.ok()) {
      *exists = true;
      return std::move(*now);
    }
    if (now.status().kind() != ErrorKind::kObjectNotFound) {
      if (!Repository::IsDamage(now.status())) return now.status();
      // A damaged record spoils only its object: the event says what it knows itself.
      ctx.repo->LogLeftOut(e.object_id, now.status());
    }
  }
  ObjectData o;
  o.id = e.object_id;
  o.type_id = e.type_id;
  for (BaseType b : {BaseType::kDocument, BaseType::kFolder, BaseType::kItem, BaseType::kRelationship}) {
    if (BaseTypeId(b) == e.base_type_id) o.base = b;
  }
  o.properties = EventProperties(e);
  return o;
}

}  // namespace

Result<Response> ContentChanges(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(uint64_t from, TokenParam(ctx));
  FOLIO_ASSIGN_OR_RETURN(int64_t max, ctx.params.GetInt("maxItems", 100, 0, 10000));
  FOLIO_ASSIGN_OR_RETURN(bool properties, ctx.params.GetBool("includeProperties", false));
  FOLIO_ASSIGN_OR_RETURN(bool acl, ctx.params.GetBool("includeACL", false));
  FOLIO_ASSIGN_OR_RETURN(bool policies, ctx.params.GetBool("includePolicyIds", false));
  FOLIO_ASSIGN_OR_RETURN(RenderOptions options, ctx.Rendering());
  const bool extended_dates = options.extended_dates;
  FOLIO_ASSIGN_OR_RETURN(ObjectWriter writer, ObjectWriter::For(ctx));
  FOLIO_ASSIGN_OR_RETURN(ChangeLogPage page, ctx.repo->ReadChanges(from, static_cast<size_t>(max)));
  std::string body;
  JsonWriter w(body);
  w.BeginObject().Key("objects").BeginArray();
  // Events of objects the caller may not read (now) are left out, and so are deletions
  // unless the caller sees everything: nothing tells who could read a deleted object.
  const bool filter = !SeesEverything(ctx);
  for (const ChangeEventInfo& e : page.events) {
    bool exists = false;
    FOLIO_ASSIGN_OR_RETURN(ObjectData object, EventObject(ctx, e, properties || acl || filter, &exists));
    if (filter && (!exists || !MayRead(ctx, object))) continue;
    if (!properties && exists) {
      // Only the ACL was asked for: the properties stay the event's three.
      object.properties = EventProperties(e);
    }
    Json extra = Json::object();
    extra["changeEventInfo"] = Json{{"changeType", e.type}};
    if (extended_dates) {
      extra["changeEventInfo"]["changeTime"] = storage::FormatIsoMs(e.time_ms);
    } else {
      extra["changeEventInfo"]["changeTime"] = e.time_ms;
    }
    // The ACL as it is now; a deleted object has none left to show.
    if (acl && exists) {
      extra["acl"] = AclJson(object.acl, false);
      extra["exactACL"] = true;
    }
    if (policies) extra["policyIds"] = Json{{"ids", Json::array()}};  // Folio has no policies
    writer.Write(object, w, &extra);
  }
  w.EndArray();
  w.Key("hasMoreItems").Bool(page.has_more);
  // Tokens are consecutive: the events from the first answered to the newest.
  const uint64_t start = page.events.empty() ? 0 : page.events.front().token;
  w.Key("numItems").Int(start == 0 ? 0 : static_cast<int64_t>(page.latest - start + 1));
  // CMIS 1.1: the token of the last event returned; with none, the one asked for (or
  // the newest), so that a client following the log keeps its place.
  w.Key("changeLogToken");
  if (!page.events.empty()) {
    w.String(std::to_string(page.events.back().token));
  } else if (from != 0) {
    w.String(std::to_string(from));
  } else if (page.latest != 0) {
    w.String(std::to_string(page.latest));
  } else {
    w.Null();
  }
  w.EndObject();
  return JsonTextResponse(200, std::move(body));
}

}  // namespace folio::api::ops
