// Names of the error kinds and Status formatting.
#include "folio/status.h"

namespace folio {

std::string_view ErrorKindName(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kOk: return "ok";
    case ErrorKind::kInvalidArgument: return "invalidArgument";
    case ErrorKind::kObjectNotFound: return "objectNotFound";
    case ErrorKind::kNameConstraintViolation: return "nameConstraintViolation";
    case ErrorKind::kConstraint: return "constraint";
    case ErrorKind::kVersioning: return "versioning";
    case ErrorKind::kUpdateConflict: return "updateConflict";
    case ErrorKind::kContentAlreadyExists: return "contentAlreadyExists";
    case ErrorKind::kPermissionDenied: return "permissionDenied";
    case ErrorKind::kUnauthorized: return "unauthorized";
    case ErrorKind::kNotSupported: return "notSupported";
    case ErrorKind::kFilterNotValid: return "filterNotValid";
    case ErrorKind::kStreamNotSupported: return "streamNotSupported";
    case ErrorKind::kStorage: return "storage";
    case ErrorKind::kRuntime: return "runtime";
  }
  return "runtime";
}

std::string Status::ToString() const {
  if (ok()) return "ok";
  return std::string(ErrorKindName(kind_)) + ": " + message_;
}

}  // namespace folio
