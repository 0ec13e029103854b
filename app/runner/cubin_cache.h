// On-disk cache of NVRTC output: a CUBIN, its compile log, the kernel's lowered name and its
// resources (registers, shared memory: `info`), stored under a key that is the SHA-256 of
// everything that determines the compile (see NvrtcCompiler).
// Recompiling a 192x192 register-tiled kernel costs ~1 s; a slider drag revisits configurations.
// Every file goes through the atomic write path, and the info file, written last, records each
// part's size and SHA-256: an entry is used only when it is whole (a part cut short by a full
// disk, or changed since, is removed and the kernel compiled again).
#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <optional>

namespace gemmscope::runner {

struct CachedCubin {
    QByteArray cubin;
    QString log;
    QString loweredName;
    QByteArray ptx; // optional: entries written before PTX was kept have none
    // {"registers":..,"static_smem_bytes":..,"spill_store_bytes":..,"spill_load_bytes":..,
    //  "stack_frame_bytes":..,"source":"ptxas"|"cuda_runtime"}; empty for entries written before
    // it existed (then the log must say them).
    QJsonObject info;
};

class CubinCache {
public:
    explicit CubinCache(QString directory); // created on first store
    std::optional<CachedCubin> load(const QString &key) const;
    // Failure to write is not an error for the job: the compile result is still used, and no part
    // of the failed entry is left behind.
    bool store(const QString &key, const CachedCubin &entry) const;
    void remove(const QString &key) const;
    QString directory() const { return m_directory; }

private:
    QString pathFor(const QString &key, const char *suffix) const;
    QString m_directory;
};

} // namespace gemmscope::runner
