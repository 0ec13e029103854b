// The editor's autosaved buffers (app/core/kernel_buffers.h): written and read back whole, a
// damaged file set aside with a sentence (never overwritten, never a crash), a kernel over 1 MiB
// neither written nor restored, and the autosave a second after the last change.
#include "custom_stage.h"
#include "kernel_buffers.h"
#include "support/file_bytes.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace gemmscope;
using gemmscope::test::readAll;
using gemmscope::test::writeAll;

namespace {

QList<KernelBuffer> twoBuffers()
{
    return {{.text = QStringLiteral("// my kernel\n__global__ void k() {}\n<b>markup</b> \"quotes\" é\n"),
             .fileName = QStringLiteral("my_gemm.cuh"),
             .derivedFrom = QStringLiteral("coalesced"),
             .cursorLine = 2,
             .cursorColumn = 5},
            {.text = QString(),
             .fileName = QStringLiteral("blank.cuh"),
             .derivedFrom = {},
             .cursorLine = 0,
             .cursorColumn = 0}};
}

} // namespace

class TestKernelBuffers : public QObject {
    Q_OBJECT
private slots:
    void roundTrip()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sub/kernel-buffers.json"));
        const KernelBuffersWrite write = KernelBufferFile::save(path, twoBuffers());
        QVERIFY2(write.ok, qPrintable(write.problems.join(' ')));
        const KernelBuffersRead read = KernelBufferFile::load(path);
        QVERIFY2(read.problems.isEmpty(), qPrintable(read.problems.join(' ')));
        QCOMPARE(read.buffers, twoBuffers());
    }

    void noFileIsAFirstStart()
    {
        QTemporaryDir dir;
        const KernelBuffersRead read = KernelBufferFile::load(dir.filePath(QStringLiteral("none.json")));
        QVERIFY(read.buffers.isEmpty());
        QVERIFY(read.problems.isEmpty());
    }

    void damaged_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("not JSON") << QByteArray("{\"format\": \"gemmscope-kernel");
        QTest::newRow("binary") << QByteArray("\x00\xff\xfe\x01", 4);
        QTest::newRow("another format") << QByteArray("{\"format\":\"gemmscope-session\",\"version\":1}");
        QTest::newRow("a newer version")
            << QByteArray("{\"format\":\"gemmscope-kernel-buffers\",\"version\":99}");
        QTest::newRow("buffers not a list")
            << QByteArray("{\"format\":\"gemmscope-kernel-buffers\",\"version\":1,\"buffers\":7}");
        QTest::newRow("empty") << QByteArray();
    }
    // Set aside under another name with a sentence naming both; the editor starts without it.
    void damaged()
    {
        QFETCH(QByteArray, bytes);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("kernel-buffers.json"));
        QVERIFY(writeAll(path, bytes));
        const KernelBuffersRead read = KernelBufferFile::load(path);
        QVERIFY(read.buffers.isEmpty());
        QCOMPARE(read.problems.size(), 1);
        QVERIFY2(read.problems[0].contains(QStringLiteral("kernel-buffers.json")),
                 qPrintable(read.problems[0]));
        QVERIFY(!read.setAsidePath.isEmpty());
        QVERIFY2(read.problems[0].contains(QFileInfo(read.setAsidePath).fileName()),
                 qPrintable(read.problems[0]));
        QVERIFY(!QFileInfo::exists(path));
        QCOMPARE(readAll(read.setAsidePath), bytes); // kept as it was
        QVERIFY(!read.keepAutosaveOff);
        // The next save writes a new file; the damaged one stays aside.
        QVERIFY(KernelBufferFile::save(path, twoBuffers()).ok);
        QCOMPARE(readAll(read.setAsidePath), bytes);
    }

    // A named pipe at the autosave's name is neither read (it would block) nor followed.
    void aPipeInItsPlace()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("kernel-buffers.json"));
        QVERIFY(QProcess::execute(QStringLiteral("mkfifo"), {path}) == 0);
        const KernelBuffersRead read = KernelBufferFile::load(path);
        QVERIFY(read.buffers.isEmpty());
        QCOMPARE(read.problems.size(), 1);
    }

    // One bad entry costs that entry, with its sentence; the others are restored.
    void aBadEntryIsLeftOut()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("kernel-buffers.json"));
        QVERIFY(writeAll(path,
                         "{\"format\":\"gemmscope-kernel-buffers\",\"version\":1,\"buffers\":[\n"
                         "            "
                         "{\"file_name\":\"good.cuh\",\"text\":\"x\",\"cursor_line\":-5},{\"file_name\":\"\","
                         "\"text\":\"y\"},{\"file_name\":\"n.cuh\",\"text\":3},7]}"));
        const KernelBuffersRead read = KernelBufferFile::load(path);
        QCOMPARE(read.buffers.size(), 1);
        QCOMPARE(read.buffers[0].fileName, QStringLiteral("good.cuh"));
        QCOMPARE(read.buffers[0].cursorLine, 0);
        QCOMPARE(read.problems.size(), 3);
        QVERIFY(read.setAsidePath.isEmpty());
    }

    // Over 1 MiB is not a kernel's source: not written (said), and not restored from a file that
    // holds one (said); the others are kept both ways.
    void theOneMebibyteLimit()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("kernel-buffers.json"));
        QList<KernelBuffer> buffers = twoBuffers();
        buffers.append({.text = QString(int(kMaxKernelSourceBytes) + 1, QLatin1Char('x')),
                        .fileName = QStringLiteral("huge.cuh"),
                        .derivedFrom = {},
                        .cursorLine = 0,
                        .cursorColumn = 0});
        const KernelBuffersWrite write = KernelBufferFile::save(path, buffers);
        QVERIFY(write.ok);
        QCOMPARE(write.problems.size(), 1);
        QVERIFY(write.problems[0].contains(QStringLiteral("huge.cuh")));
        QCOMPARE(KernelBufferFile::load(path).buffers, twoBuffers());

        // Exactly at the limit is a kernel.
        buffers.last().text.chop(1);
        QVERIFY(KernelBufferFile::save(path, buffers).problems.isEmpty());
        QCOMPARE(KernelBufferFile::load(path).buffers.size(), 3);

        // A file someone wrote with a larger one.
        const QByteArray huge =
            QByteArray("{\"format\":\"gemmscope-kernel-buffers\",\"version\":1,\"buffers\":[") +
            "{\"file_name\":\"big.cuh\",\"text\":\"" + QByteArray(int(kMaxKernelSourceBytes) + 10, 'y') +
            "\"},{\"file_name\":\"small.cuh\",\"text\":\"z\"}]}";
        QVERIFY(writeAll(path, huge));
        const KernelBuffersRead read = KernelBufferFile::load(path);
        QCOMPARE(read.buffers.size(), 1);
        QCOMPARE(read.buffers[0].fileName, QStringLiteral("small.cuh"));
        QCOMPARE(read.problems.size(), 1);
        QVERIFY(read.problems[0].contains(QStringLiteral("big.cuh")));
    }

    // A second after the last change, once; saveNow at once.
    void autosaveAfterTheLastChange()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("kernel-buffers.json"));
        QList<KernelBuffer> current = twoBuffers();
        KernelAutosave autosave(path, [&current] { return current; });
        autosave.setDelay(200);
        autosave.changed();
        autosave.changed();
        QVERIFY(autosave.isPending());
        QVERIFY(!QFileInfo::exists(path)); // not before the delay
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(path), 10000);
        QCOMPARE(KernelBufferFile::load(path).buffers, twoBuffers());
        current.removeLast();
        QVERIFY(autosave.saveNow());
        QCOMPARE(KernelBufferFile::load(path).buffers, current);
        QVERIFY(!autosave.hasChanges());
        current[0].cursorLine = 7; // a cursor moved is a change
        QVERIFY(autosave.hasChanges());
        autosave.forgetChanges();
        QVERIFY(!autosave.hasChanges() && !autosave.isPending());
        autosave.setEnabled(false);
        current.clear();
        QVERIFY(!autosave.saveNow());
        QCOMPARE(KernelBufferFile::load(path).buffers.size(), 1);
    }

    void aFailedSaveIsSaid()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("taken"));
        QVERIFY(QDir().mkpath(folder)); // a folder where the file should be
        KernelAutosave autosave(folder, [] { return twoBuffers(); });
        QSignalSpy said(&autosave, &KernelAutosave::saveProblem);
        QVERIFY(!autosave.saveNow());
        QCOMPARE(said.size(), 1);
        QVERIFY(!said[0][0].toString().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestKernelBuffers)
#include "tst_kernel_buffers.moc"
