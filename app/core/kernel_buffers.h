// The kernel editor's buffers kept across starts: each open kernel's text, the name the user gave
// it, the stage it was copied from and where the cursor was, written through the one atomic write
// path into the application's data folder a second after the last edit and when the window
// closes, and read back at the next start. A damaged file (not JSON, a wrong field, a kernel over
// the 1 MiB a source may have) costs a sentence: it is set aside under another name, what can be
// read is restored, nothing crashes and nothing of it is overwritten.
#pragma once

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>
#include <functional>
#include <optional>

namespace gemmscope {

struct KernelBuffer {
    QString text;
    QString fileName;    // "my_gemm.cuh": the name the compiler's messages use
    QString derivedFrom; // the catalog key of the stage it was copied from; empty for a blank kernel
    int cursorLine = 0;  // 0-based, as the editor counts
    int cursorColumn = 0;
    friend bool operator==(const KernelBuffer &, const KernelBuffer &) = default;
};

// More buffers than a user keeps open; a file with more is read up to this many.
inline constexpr int kMaxKernelBuffers = 64;

struct KernelBuffersRead {
    QList<KernelBuffer> buffers;
    QStringList problems; // one sentence each: what could not be restored and why
    QString setAsidePath; // where a damaged file was moved; empty when it was not damaged
    // The damaged file could not be moved away: autosaving over it would lose it, so don't.
    bool keepAutosaveOff = false;
};

struct KernelBuffersWrite {
    bool ok = false;
    QStringList problems; // a buffer left out (over 1 MiB), or why the file was not written
};

namespace KernelBufferFile {
QString defaultPath(); // <application data folder>/kernel-buffers.json
QByteArray encode(const QList<KernelBuffer> &buffers, QStringList *leftOut = nullptr);
// The buffers of `bytes`, or nullopt with the reason in `error`. Buffers that cannot be used (a
// text over kMaxKernelSourceBytes, no name) are left out, each with a sentence in `problems`.
std::optional<QList<KernelBuffer>> decode(const QByteArray &bytes, QString *error, QStringList *problems);
KernelBuffersWrite save(const QString &path, const QList<KernelBuffer> &buffers);
// No file: nothing to restore and no problem.
KernelBuffersRead load(const QString &path);
} // namespace KernelBufferFile

// A kernel's source the user opens (Open kernel…): a regular file of at most 1 MiB
// (kMaxKernelSourceBytes) of UTF-8 text without NUL bytes; else nullopt and a sentence naming the
// file and what is wrong with it.
struct KernelFileRead {
    std::optional<QString> text;
    QString error;
};
KernelFileRead readKernelFile(const QString &path);

// Saves what `buffers()` gives a second after the last change (changed()), and at once on
// saveNow() (the window closing). A failed write is said through saveFailed; the next change
// tries again.
class KernelAutosave : public QObject {
    Q_OBJECT
public:
    KernelAutosave(QString path, std::function<QList<KernelBuffer>()> buffers, QObject *parent = nullptr);
    QString path() const { return m_path; }
    void setDelay(int milliseconds) { m_timer.setInterval(milliseconds); }
    void setEnabled(bool enabled); // off: nothing is written (a damaged file could not be set aside)
    bool isEnabled() const { return m_enabled; }
    bool isPending() const { return m_timer.isActive(); }
    // What `buffers()` gives differs from what was last saved (or restored: forgetChanges()): the
    // window's closing writes only then, so an instance that changed nothing leaves the file to
    // the one that did.
    bool hasChanges() const;
    void forgetChanges(); // what is shown is what the file holds (just restored from it)

public slots:
    void changed();
    bool saveNow();

signals:
    // Empty: the last save worked (a problem said before can go away).
    void saveProblem(const QString &sentence);

private:
    QString m_path;
    std::function<QList<KernelBuffer>()> m_buffers;
    QTimer m_timer;
    bool m_enabled = true;
    QList<KernelBuffer> m_saved; // what the file holds, as far as this instance knows
};

} // namespace gemmscope
