// The runner's CUBIN cache writes every file through the one atomic write path and uses an entry
// only when it is whole: a part cut short (a full disk, a crash of another writer) or changed
// since is removed and compiled again, never loaded; a full disk leaves no part behind; a link
// planted in the cache folder is replaced, never written through. Needs no GPU.
#include "../support/fs_faults.h"
#include "cubin_cache.h"
#include "file_write.h"

#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace gemmscope;
using namespace gemmscope::runner;
using namespace gemmscope::testing;

namespace {

const QString kKey = QStringLiteral("0123456789abcdef");

CachedCubin entry()
{
    CachedCubin e;
    e.cubin = QByteArray(20000, '\x7f') + QByteArray("ELF-ish tail");
    e.log = QStringLiteral("ptxas info    : Used 128 registers");
    e.loweredName = QStringLiteral("_ZN9gemmscope12final_kernelILi128EEEvPKfS2_Pfiii");
    e.ptx = QByteArray(5000, 'p');
    e.info =
        QJsonObject{{QStringLiteral("registers"), 128}, {QStringLiteral("source"), QStringLiteral("ptxas")}};
    return e;
}

QStringList filesIn(const QString &dir)
{
    return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::System);
}

} // namespace

class TestCubinCache : public QObject {
    Q_OBJECT

private slots:
    void cleanup() { simulateFullDiskAfter(-1); }

    void aStoredEntryLoadsAsItWasStored()
    {
        QTemporaryDir dir;
        const CubinCache cache(dir.path());
        QVERIFY(cache.store(kKey, entry()));
        const auto loaded = cache.load(kKey);
        QVERIFY(loaded);
        QCOMPARE(loaded->cubin, entry().cubin);
        QCOMPARE(loaded->log, entry().log);
        QCOMPARE(loaded->loweredName, entry().loweredName);
        QCOMPARE(loaded->ptx, entry().ptx);
        QCOMPARE(loaded->info, entry().info); // the record of the parts is the cache's own
    }

    void anEntryWithoutPtxLoadsWithout()
    {
        QTemporaryDir dir;
        const CubinCache cache(dir.path());
        CachedCubin e = entry();
        e.ptx.clear();
        QVERIFY(cache.store(kKey, e));
        const auto loaded = cache.load(kKey);
        QVERIFY(loaded);
        QVERIFY(loaded->ptx.isEmpty());
    }

    // A torn CUBIN was taken as a cache hit: any part cut short, or changed, is a miss, and the
    // entry is removed so that the next compile writes a whole one.
    void aDamagedPartIsNeverLoaded_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addColumn<bool>("truncate"); // else one byte is changed
        for (const char *suffix : {".cubin", ".ptx", ".log", ".name"}) {
            QTest::addRow("%s cut short", suffix) << QString::fromLatin1(suffix) << true;
            QTest::addRow("%s changed", suffix) << QString::fromLatin1(suffix) << false;
        }
        QTest::addRow("info emptied") << QStringLiteral(".info") << true;
    }
    void aDamagedPartIsNeverLoaded()
    {
        QFETCH(QString, suffix);
        QFETCH(bool, truncate);
        QTemporaryDir dir;
        const CubinCache cache(dir.path());
        QVERIFY(cache.store(kKey, entry()));
        QFile part(dir.filePath(kKey + suffix));
        QVERIFY(part.open(QIODevice::ReadWrite));
        if (truncate) {
            QVERIFY(part.resize(suffix == QStringLiteral(".info") ? 0 : part.size() / 2));
        } else {
            QVERIFY(part.seek(part.size() / 2));
            QVERIFY(part.write("!") == 1);
        }
        part.close();
        QVERIFY(!cache.load(kKey));
        QVERIFY2(filesIn(dir.path()).isEmpty(), qPrintable(filesIn(dir.path()).join(QLatin1Char(' '))));
        // ... and a fresh store makes it whole again.
        QVERIFY(cache.store(kKey, entry()));
        QVERIFY(cache.load(kKey));
    }

    // On a full disk the cache kept cut-short .cubin/.ptx and empty .info/.name files.
    void aFullDiskLeavesNoPartBehind_data()
    {
        // The injected fault fails a file's writing after `bytes` of it: every part, up to the CUBIN
        // (20,012 bytes), fails somewhere along its way.
        QTest::addColumn<qint64>("bytes");
        for (qint64 bytes : {0LL, 1LL, 100LL, 4999LL, 12000LL, 20000LL})
            QTest::addRow("after %lld bytes", bytes) << bytes;
    }
    void aFullDiskLeavesNoPartBehind()
    {
        QFETCH(qint64, bytes);
        QTemporaryDir dir;
        const CubinCache cache(dir.path());
        simulateFullDiskAfter(bytes);
        QVERIFY(!cache.store(kKey, entry()));
        simulateFullDiskAfter(-1);
        QVERIFY(!cache.load(kKey));
        QVERIFY2(filesIn(dir.path()).isEmpty(), qPrintable(filesIn(dir.path()).join(QLatin1Char(' '))));
    }

    // The same on a real file system that fills up (a 64 KiB tmpfs, as root): the entry's 25 KB
    // fit once, not with a second key beside it; the second store fails whole and leaves nothing.
    void aFullFileSystemLeavesNoPartBehind()
    {
        QTemporaryDir dir;
        GEMMSCOPE_SMALL_FILE_SYSTEM_OR_SKIP(fs, dir.path(), "aFullDiskLeavesNoPartBehind");
        const CubinCache cache(fs.path());
        QVERIFY(cache.store(kKey, entry()));
        fillUp(fs.path(), 8192); // room for the small parts, not for the CUBIN
        const QString other = QStringLiteral("fedcba9876543210");
        QVERIFY(!cache.store(other, entry()));
        QVERIFY(!cache.load(other));
        const QStringList left = filesIn(fs.path()).filter(other);
        QVERIFY2(left.isEmpty(), qPrintable(left.join(QLatin1Char(' '))));
        QVERIFY(cache.load(kKey)); // the whole entry beside it is untouched
    }

    // An older entry's info file must stop counting before its parts are replaced: a store that
    // fails half-way leaves a miss, not the old info over new parts.
    void aFailedStoreOverAnOldEntryLeavesAMiss()
    {
        QTemporaryDir dir;
        const CubinCache cache(dir.path());
        QVERIFY(cache.store(kKey, entry()));
        CachedCubin changed = entry();
        changed.cubin = QByteArray(30000, '\x01');
        simulateFullDiskAfter(25000); // the new CUBIN fails; the smaller parts were written
        QVERIFY(!cache.store(kKey, changed));
        simulateFullDiskAfter(-1);
        QVERIFY(!cache.load(kKey));
    }

    // The cache folder is the runner's own: a link planted at an entry's name is replaced by the
    // file, and what it pointed to is untouched.
    void aPlantedLinkIsNotWrittenThrough()
    {
        QTemporaryDir dir;
        QTemporaryDir elsewhere;
        const QString victim = elsewhere.filePath(QStringLiteral("precious.txt"));
        QFile file(victim);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("do not touch");
        file.close();
        QVERIFY(QFile::link(victim, dir.filePath(kKey + QStringLiteral(".cubin"))));
        const CubinCache cache(dir.path());
        QVERIFY(cache.store(kKey, entry()));
        QVERIFY(!QFileInfo(dir.filePath(kKey + QStringLiteral(".cubin"))).isSymLink());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("do not touch"));
        QVERIFY(cache.load(kKey));
    }

    // Entries written before the parts were recorded cannot be checked: they are compiled again.
    void anEntryWithoutItsRecordIsAMiss()
    {
        QTemporaryDir dir;
        const CubinCache cache(dir.path());
        for (const char *suffix : {".cubin", ".log", ".name", ".info"}) {
            QFile part(dir.filePath(kKey + QString::fromLatin1(suffix)));
            QVERIFY(part.open(QIODevice::WriteOnly));
            part.write(QByteArrayView(suffix) == ".info" ? QByteArray(R"({"registers":64})")
                                                         : QByteArray("x"));
        }
        QVERIFY(!cache.load(kKey));
    }
};

QTEST_GUILESS_MAIN(TestCubinCache)
#include "tst_cubin_cache.moc"
