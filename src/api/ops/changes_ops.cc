// getContentChanges (docs/API.md §7.12): the repository's change
// log as objects with changeEventInfo, with the token rules of CMIS 1.1.
#include <algorithm>
#include <charconv>
#include <optional>

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

// Whether the caller sees event `e` (docs/API.md §7.12), `now` being its object as it
// is (null when gone): a caller who sees everything sees every event; another sees the
// events of objects it may read now, and every event of an object it could read when it
// was deleted (the readers its "deleted" event recorded), that event included. The one
// place the change log is filtered for a caller.
Result<bool> CallerSees(Context& ctx, const ChangeEventInfo& e, const ObjectData* now) {
  if (SeesEverything(ctx)) return true;
  if (e.type != "deleted" && now != nullptr) return MayRead(ctx, *now);
  std::optional<std::vector<std::string>> readers;
  if (e.type == "deleted") {
    readers = e.readers;
  } else {
    FOLIO_ASSIGN_OR_RETURN(readers, ctx.repo->DeletionReaders(e.object_id, e.token));
  }
  if (!readers) return false;
  return std::any_of(readers->begin(), readers->end(),
                     [&](const std::string& principal) { return ctx.caller.Matches(principal); });
}

// An event as answered, with its object (see EventObject).
struct ShownEvent {
  ChangeEventInfo event;
  ObjectData object;
  bool exists = false;
};

}  // namespace

Result<Response> ContentChanges(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(uint64_t from, TokenParam(ctx));
  FOLIO_ASSIGN_OR_RETURN(int64_t max_items, ctx.params.GetInt("maxItems", 100, 0, 10000));
  FOLIO_ASSIGN_OR_RETURN(bool properties, ctx.params.GetBool("includeProperties", false));
  FOLIO_ASSIGN_OR_RETURN(bool acl, ctx.params.GetBool("includeACL", false));
  FOLIO_ASSIGN_OR_RETURN(bool policies, ctx.params.GetBool("includePolicyIds", false));
  FOLIO_ASSIGN_OR_RETURN(RenderOptions options, ctx.Rendering());
  const bool extended_dates = options.extended_dates;
  FOLIO_ASSIGN_OR_RETURN(ObjectWriter writer, ObjectWriter::For(ctx));
  const size_t max = static_cast<size_t>(max_items);
  // A caller who does not see everything reads on past events it does not see, until
  // it has a page (or the log ends): a page of none with more to come would give it no
  // token to go on from.
  const bool filter = !SeesEverything(ctx);
  const size_t batch = filter ? std::max<size_t>(max, 100) : max;
  FOLIO_ASSIGN_OR_RETURN(ChangeLogPage page, ctx.repo->ReadChanges(from, batch));
  if (from > page.latest) {
    // A token this log never gave (another copy of the repository, or one restored from
    // an older backup): answering [] would let the client miss every event to come.
    return Constraint("change log token " + std::to_string(from) + " is newer than the newest event, " +
                      (page.latest == 0 ? std::string("none (the log is empty)") : std::to_string(page.latest)));
  }
  const uint64_t latest = page.latest;
  std::vector<ShownEvent> shown;
  bool has_more = false;
  for (bool done = false; !done;) {
    for (ChangeEventInfo& e : page.events) {
      bool exists = false;
      FOLIO_ASSIGN_OR_RETURN(ObjectData object, EventObject(ctx, e, properties || acl || filter, &exists));
      FOLIO_ASSIGN_OR_RETURN(bool sees, CallerSees(ctx, e, exists ? &object : nullptr));
      if (!sees) continue;
      if (shown.size() == max) {
        has_more = true;
        done = true;
        break;
      }
      shown.push_back({std::move(e), std::move(object), exists});
    }
    if (done) break;
    if (!filter || !page.has_more || page.events.empty()) {
      has_more = !filter && page.has_more;
      break;
    }
    FOLIO_ASSIGN_OR_RETURN(page, ctx.repo->ReadChanges(page.events.back().token + 1, batch));
  }

  std::string body;
  JsonWriter w(body);
  w.BeginObject().Key("objects").BeginArray();
  for (ShownEvent& s : shown) {
    const ChangeEventInfo& e = s.event;
    if (!properties && s.exists) {
      // Only the ACL was asked for: the properties stay the event's three.
      s.object.properties = EventProperties(e);
    }
    Json extra = Json::object();
    extra["changeEventInfo"] = Json{{"changeType", e.type}};
    if (extended_dates) {
      extra["changeEventInfo"]["changeTime"] = storage::FormatIsoMs(e.time_ms);
    } else {
      extra["changeEventInfo"]["changeTime"] = e.time_ms;
    }
    // The ACL as it is now; a deleted object has none left to show.
    if (acl && s.exists) {
      extra["acl"] = AclJson(s.object.acl, false);
      extra["exactACL"] = true;
    }
    if (policies) extra["policyIds"] = Json{{"ids", Json::array()}};  // Folio has no policies
    writer.Write(s.object, w, &extra);
  }
  w.EndArray();
  w.Key("hasMoreItems").Bool(has_more);
  // The events from the first answered to the newest: all of them when the caller sees
  // everything (tokens are consecutive); for another caller only those it sees, known
  // once the log has been read to its end (else numItems is left out).
  const uint64_t start = shown.empty() ? 0 : shown.front().event.token;
  if (!filter) {
    w.Key("numItems").Int(start == 0 ? 0 : static_cast<int64_t>(latest - start + 1));
  } else if (!has_more) {
    w.Key("numItems").Int(static_cast<int64_t>(shown.size()));
  }
  // CMIS 1.1: the token of the last event returned; with none, the one asked for (or
  // the newest), so that a client following the log keeps its place.
  w.Key("changeLogToken");
  if (!shown.empty()) {
    w.String(std::to_string(shown.back().event.token));
  } else if (from != 0) {
    w.String(std::to_string(from));
  } else if (latest != 0) {
    w.String(std::to_string(latest));
  } else {
    w.Null();
  }
  w.EndObject();
  return JsonTextResponse(200, std::move(body));
}

}  // namespace folio::api::ops
