#include "kernel_buffers.h"

#include "custom_stage.h"
#include "file_read.h"
#include "file_write.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QStringDecoder>

namespace gemmscope {

namespace {

// The file's own format; its keys are the editor's, not the runner protocol's.
const QLatin1String kFormat("gemmscope-kernel-buffers");
constexpr int kVersion = 1;
// Every buffer at its limit, escaped: a larger file is not one GemmScope wrote.
constexpr qint64 kMaxFileBytes = qint64(kMaxKernelBuffers) * qint64(kMaxKernelSourceBytes) * 2;

QString tr(const char *text)
{
    return QCoreApplication::translate("KernelBuffers", text);
}

bool tooLarge(const QString &text)
{
    // Counted as the compiler gets it (UTF-8 bytes); only a long text can be over.
    return text.size() * 3 > qsizetype(kMaxKernelSourceBytes) &&
           std::size_t(text.toUtf8().size()) > kMaxKernelSourceBytes;
}

QString setAsideName(const QString &path)
{
    const QFileInfo info(path);
    const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-hhmmss"));
    QString candidate =
        info.dir().filePath(QStringLiteral("%1.damaged-%2.json").arg(info.completeBaseName(), stamp));
    for (int n = 2; QFileInfo::exists(candidate) || QFileInfo(candidate).isSymLink(); ++n)
        candidate = info.dir().filePath(
            QStringLiteral("%1.damaged-%2-%3.json").arg(info.completeBaseName(), stamp).arg(n));
    return candidate;
}

} // namespace

QString KernelBufferFile::defaultPath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(QStringLiteral("kernel-buffers.json"));
}

QByteArray KernelBufferFile::encode(const QList<KernelBuffer> &buffers, QStringList *leftOut)
{
    QJsonArray list;
    for (const KernelBuffer &b : buffers) {
        if (tooLarge(b.text)) {
            if (leftOut)
                leftOut->append(tr("%1 is over 1 MiB, the most a kernel's source may have: it is not "
                                   "autosaved. Export it (Kernel > Export Kernel) to keep it.")
                                    .arg(b.fileName));
            continue;
        }
        if (list.size() >= kMaxKernelBuffers) {
            if (leftOut)
                leftOut->append(tr("%1 is not autosaved: the autosave keeps %2 kernels at most.")
                                    .arg(b.fileName)
                                    .arg(kMaxKernelBuffers));
            continue;
        }
        list.append(QJsonObject{{QStringLiteral("file_name"), b.fileName},
                                {QStringLiteral("text"), b.text},
                                {QStringLiteral("copied_from"), b.derivedFrom},
                                {QStringLiteral("cursor_line"), b.cursorLine},
                                {QStringLiteral("cursor_column"), b.cursorColumn}});
    }
    const QJsonObject root{{QStringLiteral("format"), kFormat},
                           {QStringLiteral("version"), kVersion},
                           {QStringLiteral("buffers"), list}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

std::optional<QList<KernelBuffer>> KernelBufferFile::decode(const QByteArray &bytes, QString *error,
                                                            QStringList *problems)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = tr("it is not JSON (%1 at byte %2)").arg(parseError.errorString()).arg(parseError.offset);
        return std::nullopt;
    }
    const QJsonObject root = doc.object();
    if (!doc.isObject() || root.value(QStringLiteral("format")).toString() != kFormat) {
        *error = tr("it is not an autosave of the kernel editor");
        return std::nullopt;
    }
    if (root.value(QStringLiteral("version")).toInt(-1) != kVersion) {
        *error = tr("it was written by another version of GemmScope (format version %1)")
                     .arg(root.value(QStringLiteral("version")).toVariant().toString());
        return std::nullopt;
    }
    if (!root.value(QStringLiteral("buffers")).isArray()) {
        *error = tr("it has no list of kernels");
        return std::nullopt;
    }
    QList<KernelBuffer> buffers;
    const QJsonArray list = root.value(QStringLiteral("buffers")).toArray();
    int index = 0;
    for (const QJsonValue &value : list) {
        ++index;
        const QJsonObject o = value.toObject();
        const QString name = o.value(QStringLiteral("file_name")).toString().left(255);
        const QJsonValue text = o.value(QStringLiteral("text"));
        if (!value.isObject() || name.trimmed().isEmpty() || !text.isString()) {
            problems->append(
                tr("Kernel %1 of the autosave has no name or no text; it was not restored.").arg(index));
            continue;
        }
        if (tooLarge(text.toString())) {
            problems->append(tr("%1 in the autosave is over 1 MiB, the most a kernel's source may have; it "
                                "was not restored.")
                                 .arg(name));
            continue;
        }
        if (buffers.size() >= kMaxKernelBuffers) {
            problems->append(tr("The autosave holds more than %1 kernels; the first %1 were restored.")
                                 .arg(kMaxKernelBuffers));
            break;
        }
        buffers.append({.text = text.toString(),
                        .fileName = name,
                        .derivedFrom = o.value(QStringLiteral("copied_from")).toString().left(64),
                        .cursorLine = std::max(0, o.value(QStringLiteral("cursor_line")).toInt()),
                        .cursorColumn = std::max(0, o.value(QStringLiteral("cursor_column")).toInt())});
    }
    return buffers;
}

KernelBuffersWrite KernelBufferFile::save(const QString &path, const QList<KernelBuffer> &buffers)
{
    KernelBuffersWrite result;
    const QByteArray bytes = encode(buffers, &result.problems);
    QDir().mkpath(QFileInfo(path).absolutePath());
    // The application's own file: a link planted at its name is replaced, never followed.
    WriteOptions options;
    options.followSymlinks = false;
    const FileWrite write = writeFileAtomically(path, bytes, options);
    result.ok = write.ok;
    if (!write.ok)
        result.problems.append(tr("The editor's kernels could not be autosaved: %1").arg(write.error));
    return result;
}

KernelBuffersRead KernelBufferFile::load(const QString &path)
{
    KernelBuffersRead result;
    const QFileInfo info(path);
    if (!info.exists() && !info.isSymLink())
        return result; // first start
    const FileBytes read = readRegularFile(path, kMaxFileBytes);
    QString error;
    std::optional<QList<KernelBuffer>> buffers;
    if (read.bytes)
        buffers = decode(*read.bytes, &error, &result.problems);
    else
        error = read.error;
    if (buffers) {
        result.buffers = *buffers;
        return result;
    }
    // Damaged: moved aside (never overwritten by the next autosave), the editor starts empty.
    const QString aside = setAsideName(path);
    if (QFile::rename(path, aside)) {
        result.setAsidePath = aside;
        result.problems.prepend(tr("The editor's autosave %1 could not be read (%2); it was set aside as %3 "
                                   "and the editor starts without it.")
                                    .arg(info.fileName(), error, QFileInfo(aside).fileName()));
    } else {
        result.keepAutosaveOff = true;
        result.problems.prepend(
            tr("The editor's autosave %1 could not be read (%2) nor set aside; the editor "
               "does not autosave over it. Move it away to autosave again.")
                .arg(QDir::toNativeSeparators(path), error));
    }
    return result;
}

KernelFileRead readKernelFile(const QString &path)
{
    const QString name = QFileInfo(path).fileName();
    const FileBytes read = readRegularFile(path, qint64(kMaxKernelSourceBytes));
    if (!read.bytes) {
        if (QFileInfo(path).isFile() && QFileInfo(path).size() > qint64(kMaxKernelSourceBytes))
            return {std::nullopt,
                    tr("%1 is not opened: it is %2 MiB, and a kernel's source may have 1 MiB at most.")
                        .arg(name)
                        .arg(double(QFileInfo(path).size()) / (1024.0 * 1024.0), 0, 'f', 1)};
        return {std::nullopt, read.error};
    }
    if (read.bytes->contains('\0'))
        return {
            std::nullopt,
            tr("%1 is not opened: it holds binary data (NUL bytes), not a kernel's source text.").arg(name)};
    QStringDecoder decoder(QStringDecoder::Utf8);
    QString text = decoder.decode(*read.bytes);
    if (decoder.hasError())
        return {std::nullopt,
                tr("%1 is not opened: it is not UTF-8 text (binary data or another encoding).").arg(name)};
    return {std::move(text), {}};
}

KernelAutosave::KernelAutosave(QString path, std::function<QList<KernelBuffer>()> buffers, QObject *parent)
    : QObject(parent), m_path(std::move(path)), m_buffers(std::move(buffers))
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(1000); // a second after the last edit: typing is not a write per key
    connect(&m_timer, &QTimer::timeout, this, &KernelAutosave::saveNow);
}

void KernelAutosave::setEnabled(bool enabled)
{
    m_enabled = enabled;
    if (!enabled)
        m_timer.stop();
}

void KernelAutosave::changed()
{
    if (m_enabled)
        m_timer.start();
}

bool KernelAutosave::hasChanges() const
{
    return m_buffers() != m_saved;
}

void KernelAutosave::forgetChanges()
{
    m_saved = m_buffers();
    m_timer.stop();
}

bool KernelAutosave::saveNow()
{
    m_timer.stop();
    if (!m_enabled || m_path.isEmpty())
        return false;
    const QList<KernelBuffer> buffers = m_buffers();
    const KernelBuffersWrite write = KernelBufferFile::save(m_path, buffers);
    if (write.ok)
        m_saved = buffers;
    emit saveProblem(write.problems.join(QLatin1Char(' ')));
    return write.ok;
}

} // namespace gemmscope
