// Small, valid binary files made in code for the sample data: a PNG image (stored,
// uncompressed deflate, so no zlib) and a one-page PDF.
#pragma once

#include <string>

namespace folio::tools {

// A `size` x `size` RGB PNG: a blue-to-teal gradient with a light diagonal stripe.
std::string MakePng(int size);

// A one-page A4 PDF 1.4 showing `title` and `lines` in Helvetica; offsets in the xref
// table are exact. Text must be printable ASCII without '(', ')' or '\\'.
std::string MakePdf(const std::string& title, const std::string& lines_joined_by_newline);

}  // namespace folio::tools
