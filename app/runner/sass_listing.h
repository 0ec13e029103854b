// A CUBIN's SASS, from the CUDA Toolkit's nvdisasm where it is installed: the whole listing (the
// `disassemble` job) and each instruction's text by function and byte offset (the `profile` job).
#pragma once

#include <QByteArray>
#include <QString>
#include <cstdint>
#include <map>
#include <string>

namespace gemmscope::runner {

struct Sass {
    QString text;
    QString tool;
    QString unavailable; // why there is no SASS, when text is empty
};

// `withLines`: nvdisasm -g, each instruction's source line as a comment (from -lineinfo).
Sass disassembleCubin(const QByteArray &cubin, bool withLines = true);

// nvdisasm -c text read back: mangled function name -> byte offset -> "LDS.128 R4, [R2+0x10]".
std::map<std::string, std::map<std::uint64_t, std::string>> instructionsByFunction(const QString &listing);

} // namespace gemmscope::runner
