// On-disk cache of NVRTC output: a CUBIN, its compile log and the kernel's lowered name, stored
// under a key that is the SHA-256 of everything that determines the compile (see NvrtcCompiler).
// Recompiling a 192x192 register-tiled kernel costs ~1 s; a slider drag revisits configurations.
#pragma once

#include <QByteArray>
#include <QString>
#include <optional>

namespace gemmscope::runner {

struct CachedCubin {
    QByteArray cubin;
    QString log;
    QString loweredName;
    QByteArray ptx; // optional: entries written before PTX was kept have none
};

class CubinCache {
public:
    explicit CubinCache(QString directory); // created on first store
    std::optional<CachedCubin> load(const QString &key) const;
    // Failure to write is not an error for the job: the compile result is still used.
    bool store(const QString &key, const CachedCubin &entry) const;
    QString directory() const { return m_directory; }

private:
    QString pathFor(const QString &key, const char *suffix) const;
    QString m_directory;
};

} // namespace gemmscope::runner
