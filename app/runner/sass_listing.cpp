#include "sass_listing.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QStringList>
#include <QTemporaryFile>

namespace gemmscope::runner {

namespace {

// nvdisasm from $GEMMSCOPE_NVDISASM, PATH, or the toolkit's usual place; empty when none.
QString findNvdisasm()
{
    const QString fromEnv = qEnvironmentVariable("GEMMSCOPE_NVDISASM");
    if (!fromEnv.isEmpty())
        return QFileInfo(fromEnv).isExecutable() ? fromEnv : QString();
    const QString onPath = QStandardPaths::findExecutable(QStringLiteral("nvdisasm"));
    if (!onPath.isEmpty())
        return onPath;
    const QString toolkit = QStringLiteral("/usr/local/cuda/bin/nvdisasm");
    return QFileInfo(toolkit).isExecutable() ? toolkit : QString();
}

} // namespace

Sass disassembleCubin(const QByteArray &cubin, bool withLines)
{
    Sass sass;
    sass.tool = findNvdisasm();
    if (sass.tool.isEmpty()) {
        sass.unavailable = QStringLiteral(
            "No SASS: nvdisasm is not installed with this CUDA Toolkit (set GEMMSCOPE_NVDISASM to its path). "
            "The PTX is shown instead.");
        return sass;
    }
    QTemporaryFile file(QDir::tempPath() + QStringLiteral("/gemmscope-XXXXXX.cubin"));
    if (!file.open() || file.write(cubin) != cubin.size() || !file.flush()) {
        sass.unavailable = QStringLiteral("No SASS: the CUBIN could not be written to a temporary file.");
        return sass;
    }
    QProcess nvdisasm;
    // -c: code sections only; -g: the source line of every instruction (from -lineinfo).
    QStringList arguments{QStringLiteral("-c")};
    if (withLines)
        arguments << QStringLiteral("-g");
    nvdisasm.start(sass.tool, arguments << file.fileName());
    if (!nvdisasm.waitForFinished(60000) || nvdisasm.exitStatus() != QProcess::NormalExit ||
        nvdisasm.exitCode() != 0) {
        nvdisasm.kill();
        sass.unavailable = QStringLiteral("No SASS: %1 failed (%2).")
                               .arg(sass.tool, QString::fromUtf8(nvdisasm.readAllStandardError()).trimmed());
        return sass;
    }
    sass.text = QString::fromUtf8(nvdisasm.readAllStandardOutput());
    return sass;
}

std::map<std::string, std::map<std::uint64_t, std::string>> instructionsByFunction(const QString &listing)
{
    // ".text._ZN9gemmscope...:" opens a function; "        /*0070*/   @P0 LDS.128 R4, [R2] ;" is an
    // instruction at byte 0x70 of it.
    static const QRegularExpression function(QStringLiteral("^\\.text\\.(\\S+):\\s*$"));
    static const QRegularExpression instruction(
        QStringLiteral("^\\s*/\\*([0-9a-fA-F]+)\\*/\\s+(.*?)\\s*;?\\s*$"));
    std::map<std::string, std::map<std::uint64_t, std::string>> byFunction;
    std::map<std::uint64_t, std::string> *current = nullptr;
    for (const QString &line : listing.split(QLatin1Char('\n'))) {
        if (const QRegularExpressionMatch m = function.match(line); m.hasMatch()) {
            current = &byFunction[m.captured(1).toStdString()];
            continue;
        }
        if (!current)
            continue;
        if (const QRegularExpressionMatch m = instruction.match(line); m.hasMatch()) {
            bool ok = false;
            const std::uint64_t offset = m.captured(1).toULongLong(&ok, 16);
            if (ok)
                (*current)[offset] = m.captured(2).simplified().toStdString();
        }
    }
    return byFunction;
}

} // namespace gemmscope::runner
