// Write checks inside a change; see write_check.h.
#include "repo/changes/write_check.h"

#include "repo/lookup/object_builder.h"
#include "storage/layout.h"

namespace folio::repo::changes {

Status CheckWrite(const WriteCheck& check, WriteRole role, lookup::ObjectBuilder& builder,
                  const lookup::Target& target) {
  if (check.trusted()) return OkStatus();
  FOLIO_ASSIGN_OR_RETURN(ObjectData object, builder.Build(target));
  return check(role, object);
}

Status CheckWrite(const WriteCheck& check, WriteRole role, lookup::ObjectBuilder& builder, const lookup::Loc& loc) {
  if (check.trusted()) return OkStatus();
  lookup::Target t;
  t.loc = loc;
  return CheckWrite(check, role, builder, t);
}

ObjectData CheckedObject(BaseType base, std::string id, std::string type_id, std::string path, std::vector<Ace> acl) {
  ObjectData o;
  o.base = base;
  o.id = std::move(id);
  o.type_id = std::move(type_id);
  o.name = storage::BaseName(path);
  o.path = std::move(path);
  o.acl = std::move(acl);
  return o;
}

}  // namespace folio::repo::changes
