// Content stream writes (docs/API.md §7.7–§7.9): setContent, appendContent, deleteContent.
#include "api/ops/ops.h"

namespace folio::api::ops {

Result<Response> SetContent(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(const ObjectData object, UpdateTarget(ctx));
  FOLIO_RETURN_IF_ERROR(CheckChangeToken(ctx, object));
  FOLIO_ASSIGN_OR_RETURN(std::optional<ContentSource> content, InputContent(ctx));
  if (!content) {
    return InvalidArgument("missing required parameter 'content': send it as the file part of a multipart/form-data body");
  }
  FOLIO_ASSIGN_OR_RETURN(bool overwrite, ctx.params.GetBool("overwriteFlag", true));
  FOLIO_ASSIGN_OR_RETURN(ObjectData updated, ctx.repo->SetContent(object.id, *content, overwrite));
  return ObjectResponse(ctx, updated, 201);
}

Result<Response> DeleteContent(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(const ObjectData object, UpdateTarget(ctx));
  FOLIO_RETURN_IF_ERROR(CheckChangeToken(ctx, object));
  FOLIO_ASSIGN_OR_RETURN(ObjectData updated, ctx.repo->DeleteContent(object.id));
  return ObjectResponse(ctx, updated, 200);
}

Result<Response> AppendContent(Context& ctx) {
  FOLIO_ASSIGN_OR_RETURN(const ObjectData object, UpdateTarget(ctx));
  FOLIO_RETURN_IF_ERROR(CheckChangeToken(ctx, object));
  if (object.base != BaseType::kDocument) {
    return Constraint("object '" + object.id + "' is a " + std::string(BaseTypeId(object.base)) +
                      ", not a document: it has no content stream");
  }
  FOLIO_ASSIGN_OR_RETURN(std::optional<ContentSource> chunk, InputContent(ctx));
  if (!chunk) {
    return InvalidArgument("missing required parameter 'content': send it as the file part of a multipart/form-data body");
  }
  FOLIO_ASSIGN_OR_RETURN(bool last, ctx.params.GetBool("isLastChunk", false));
  (void)last;  // each chunk is stored when it arrives: there is nothing to finish
  FOLIO_ASSIGN_OR_RETURN(std::unique_ptr<ReadableFile> added, ReadInputContent(ctx, *chunk));
  std::vector<ReadableFile*> sources;
  std::string mime_type = chunk->mime_type, file_name = chunk->file_name;
  std::optional<ContentStream> existing;
  if (object.content) {
    FOLIO_ASSIGN_OR_RETURN(existing, ctx.repo->OpenContent(object));
    sources.push_back(existing->file.get());
    // The content keeps its type and file name; the chunk only adds bytes.
    mime_type = existing->info.mime_type;
    file_name = existing->info.file_name;
  }
  sources.push_back(added.get());
  // Kept until the change returns: removed when destroyed unless the change consumed it.
  FOLIO_ASSIGN_OR_RETURN(std::unique_ptr<Upload> combined, CopyIntoUpload(ctx, sources));
  FOLIO_ASSIGN_OR_RETURN(ObjectData updated,
                         ctx.repo->SetContent(object.id, combined->AsContent(mime_type, file_name), true));
  return ObjectResponse(ctx, updated, 201);
}

}  // namespace folio::api::ops
