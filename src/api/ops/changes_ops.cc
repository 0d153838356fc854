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
  // Only the events the caller sees (acl::GuardedRepository::ReadChanges).
  FOLIO_ASSIGN_OR_RETURN(acl::VisibleChanges changes,
                         ctx.repo->ReadChanges(from, static_cast<size_t>(max_items), properties || acl));
  if (from > changes.latest) {
    // A token this log never gave (another copy of the repository, or one restored from
    // an older backup): answering [] would let the client miss every event to come.
    return Constraint("change log token " + std::to_string(from) + " is newer than the newest event, " +
                      (changes.latest == 0 ? std::string("none (the log is empty)") : std::to_string(changes.latest)));
  }
  const uint64_t latest = changes.latest;
  const bool filter = changes.filtered;
  const bool has_more = changes.has_more;
  std::vector<acl::VisibleChange>& shown = changes.events;

  std::string body;
  JsonWriter w(body);
  w.BeginObject().Key("objects").BeginArray();
  for (acl::VisibleChange& s : shown) {
    const ChangeEventInfo& e = s.event;
    if (!properties || !s.exists) {
      // Not asked for (only the ACL was, or nothing), or gone: the properties are the
      // event's three.
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
