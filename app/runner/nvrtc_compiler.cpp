#include "nvrtc_compiler.h"

#include "cuda_check.h"
#include "kernel_sources.h"
#include "values.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <memory>
#include <string>
#include <vector>

namespace gemmscope::runner {

namespace {

struct ProgramDeleter {
    void operator()(nvrtcProgram p) const { nvrtcDestroyProgram(&p); }
};
using ProgramHandle = std::unique_ptr<std::remove_pointer_t<nvrtcProgram>, ProgramDeleter>;

QString programLog(nvrtcProgram program)
{
    size_t size = 0;
    if (nvrtcGetProgramLogSize(program, &size) != NVRTC_SUCCESS || size <= 1)
        return {};
    std::string log(size, '\0');
    if (nvrtcGetProgramLog(program, log.data()) != NVRTC_SUCCESS)
        return {};
    log.resize(std::char_traits<char>::length(log.c_str())); // up to the terminating NUL
    return QString::fromStdString(log);
}

QJsonObject resourcesInfo(const CompiledKernel &kernel)
{
    return QJsonObject{{QStringLiteral("registers"), kernel.ptxas.registers},
                       {QStringLiteral("static_smem_bytes"), kernel.ptxas.staticSmemBytes},
                       {QStringLiteral("spill_store_bytes"), kernel.ptxas.spillStoreBytes},
                       {QStringLiteral("spill_load_bytes"), kernel.ptxas.spillLoadBytes},
                       {QStringLiteral("stack_frame_bytes"), kernel.ptxas.stackFrameBytes},
                       {QStringLiteral("source"), kernel.resourcesSource}};
}

// The resources an entry's info file recorded; false when it has none.
bool applyResourcesInfo(CompiledKernel &kernel, const QJsonObject &info)
{
    const int registers = info.value(QStringLiteral("registers")).toInt(-1);
    if (registers <= 0)
        return false;
    kernel.ptxas.found = true;
    kernel.ptxas.registers = registers;
    kernel.ptxas.staticSmemBytes = info.value(QStringLiteral("static_smem_bytes")).toInt();
    kernel.ptxas.spillStoreBytes = info.value(QStringLiteral("spill_store_bytes")).toInt();
    kernel.ptxas.spillLoadBytes = info.value(QStringLiteral("spill_load_bytes")).toInt();
    kernel.ptxas.stackFrameBytes = info.value(QStringLiteral("stack_frame_bytes")).toInt();
    kernel.resourcesSource =
        info.value(QStringLiteral("source")).toString(protocol::valueName(protocol::ResourcesSource::Ptxas));
    return true;
}

} // namespace

NvrtcCompiler::NvrtcCompiler(QString cacheDirectory) : m_cache(cacheDirectory + QStringLiteral("/cubin")) {}

QString NvrtcCompiler::nvrtcVersion()
{
    int major = 0, minor = 0;
    if (::nvrtcVersion(&major, &minor) != NVRTC_SUCCESS)
        return QStringLiteral("unknown");
    return QStringLiteral("%1.%2").arg(major).arg(minor);
}

QStringList NvrtcCompiler::optionsFor(const NvrtcProgram &program)
{
    // A real architecture (sm_XX, not compute_XX) makes NVRTC run ptxas and return a CUBIN, so
    // the register and spill figures are those of the code that actually runs.
    QStringList options{QStringLiteral("--gpu-architecture=sm_%1%2")
                            .arg(program.arch)
                            .arg(program.archSpecific ? QStringLiteral("a") : QString()),
                        QStringLiteral("-std=c++17"), QStringLiteral("--ptxas-options=-v")};
    // The preprocessor would otherwise search the program's directory; a user's text must reach
    // nothing but the embedded headers (kernels/custom_stage.h checks its includes first).
    if (program.userSource)
        options << QStringLiteral("--no-source-include");
    options += program.extraOptions;
    return options;
}

QString NvrtcCompiler::cacheKey(const NvrtcProgram &program)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    auto add = [&hash](QByteArrayView part) {
        // Length-prefix every part so that two different splits can never hash alike.
        const QByteArray length = QByteArray::number(qsizetype(part.size())) + ':';
        hash.addData(length);
        hash.addData(part);
    };
    add("gemmscope-cubin-v1");
    add(nvrtcVersion().toUtf8());
    add(program.mainSource);
    if (program.userSource)
        add(program.programName.toUtf8());
    add(program.nameExpression.toUtf8());
    add(QByteArray::number(program.arch));
    for (const QString &option : optionsFor(program))
        add(option.toUtf8());
    if (program.withKernelHeaders)
        for (const auto &file : embeddedKernelSources()) {
            add(QByteArrayView(file.name.data(), qsizetype(file.name.size())));
            add(QByteArrayView(file.text.data(), qsizetype(file.text.size())));
        }
    return QString::fromLatin1(hash.result().toHex());
}

CompiledKernel NvrtcCompiler::compile(const NvrtcProgram &program) const
{
    QElapsedTimer timer;
    timer.start();
    CompiledKernel out;
    out.nameExpression = program.nameExpression;
    out.arch = program.arch;
    out.archSpecific = program.archSpecific;

    const QString key = cacheKey(program);
    out.cacheKey = key;
    if (const auto cached = m_cache.load(key); cached && !(program.needPtx && cached->ptx.isEmpty())) {
        out.cubin = cached->cubin;
        out.ptx = cached->ptx;
        out.log = cached->log;
        while (out.log.endsWith(QChar(0)))
            out.log.chop(1);
        out.loweredName = cached->loweredName;
        out.ptxas = parsePtxasLog(out.log, out.loweredName);
        if (out.ptxas.found)
            out.resourcesSource = protocol::valueName(protocol::ResourcesSource::Ptxas);
        applyResourcesInfo(out, cached->info); // what the entry recorded wins over its log
        // An entry without registers (an empty log, cached before this check) is not used.
        if (out.ptxas.found) {
            out.cacheHit = true;
            out.compileMs = double(timer.nsecsElapsed()) / 1e6;
            return out;
        }
        out = CompiledKernel{};
        out.nameExpression = program.nameExpression;
        out.arch = program.arch;
        out.archSpecific = program.archSpecific;
        out.cacheKey = key;
    }

    // Headers: every embedded kernel file by its bare name, so `#include "common.cuh"` resolves.
    std::vector<std::string> headerNames, headerTexts;
    if (program.withKernelHeaders)
        for (const auto &file : embeddedKernelSources()) {
            headerNames.emplace_back(file.name);
            headerTexts.emplace_back(file.text);
        }
    std::vector<const char *> headerNamePtrs, headerTextPtrs;
    for (size_t i = 0; i < headerNames.size(); ++i) {
        headerNamePtrs.push_back(headerNames[i].c_str());
        headerTextPtrs.push_back(headerTexts[i].c_str());
    }

    const std::string source = program.mainSource.toStdString();
    const std::string programName = program.programName.toStdString();
    nvrtcProgram raw = nullptr;
    GEMMSCOPE_NVRTC(nvrtcCreateProgram(&raw, source.c_str(), programName.c_str(), int(headerNamePtrs.size()),
                                       headerTextPtrs.data(), headerNamePtrs.data()));
    ProgramHandle handle(raw);

    const std::string nameExpression = program.nameExpression.toStdString();
    GEMMSCOPE_NVRTC(nvrtcAddNameExpression(raw, nameExpression.c_str()));

    std::vector<std::string> options;
    for (const QString &o : optionsFor(program))
        options.push_back(o.toStdString());
    std::vector<const char *> optionPtrs;
    for (const auto &o : options)
        optionPtrs.push_back(o.c_str());

    const nvrtcResult result = nvrtcCompileProgram(raw, int(optionPtrs.size()), optionPtrs.data());
    out.log = programLog(raw);
    if (result != NVRTC_SUCCESS)
        throw RunnerError(ErrorKind::CompileError,
                          QStringLiteral("NVRTC could not compile %1 for sm_%2 (%3); see the log.")
                              .arg(program.nameExpression)
                              .arg(program.arch)
                              .arg(QString::fromUtf8(nvrtcGetErrorString(result))),
                          out.log);

    const char *lowered = nullptr;
    GEMMSCOPE_NVRTC(nvrtcGetLoweredName(raw, nameExpression.c_str(), &lowered));
    out.loweredName = QString::fromUtf8(lowered);

    size_t cubinSize = 0;
    GEMMSCOPE_NVRTC(nvrtcGetCUBINSize(raw, &cubinSize));
    if (cubinSize == 0)
        throw RunnerError(
            ErrorKind::CompileError,
            QStringLiteral("NVRTC produced no CUBIN for %1 (sm_%2 is not a real architecture?).")
                .arg(program.nameExpression)
                .arg(program.arch),
            out.log);
    out.cubin.resize(qsizetype(cubinSize));
    GEMMSCOPE_NVRTC(nvrtcGetCUBIN(raw, out.cubin.data()));

    // NVRTC keeps the PTX of a real-architecture compile too: the Source tab's machine code.
    size_t ptxSize = 0;
    if (nvrtcGetPTXSize(raw, &ptxSize) == NVRTC_SUCCESS && ptxSize > 1) {
        out.ptx.resize(qsizetype(ptxSize));
        if (nvrtcGetPTX(raw, out.ptx.data()) != NVRTC_SUCCESS)
            out.ptx.clear();
        while (out.ptx.endsWith('\0'))
            out.ptx.chop(1);
    }

    out.ptxas = parsePtxasLog(out.log, out.loweredName);
    out.compileMs = double(timer.nsecsElapsed()) / 1e6;
    if (out.ptxas.found) {
        out.resourcesSource = protocol::valueName(protocol::ResourcesSource::Ptxas);
        m_cache.store(key, CachedCubin{out.cubin, out.log, out.loweredName, out.ptx, resourcesInfo(out)});
    }
    return out;
}

void NvrtcCompiler::storeIfComplete(const CompiledKernel &kernel) const
{
    if (kernel.cacheHit || kernel.cacheKey.isEmpty() || !kernel.ptxas.found || kernel.ptxas.registers <= 0 ||
        kernel.cubin.isEmpty())
        return;
    m_cache.store(kernel.cacheKey, CachedCubin{kernel.cubin, kernel.log, kernel.loweredName, kernel.ptx,
                                               resourcesInfo(kernel)});
}

NvrtcProgram standaloneProgram(const QString &programName, const char *source, const QString &kernelName,
                               int arch)
{
    NvrtcProgram program;
    program.programName = programName;
    program.mainSource = source;
    program.withKernelHeaders = false;
    program.nameExpression = kernelName;
    program.arch = arch;
    return program;
}

} // namespace gemmscope::runner
