// The ssh runner template against a real OpenSSH server: the test starts its own
// sshd on 127.0.0.1 (a free port, host and client keys made with ssh-keygen in a temporary folder,
// no PAM, no passwords), then runs a sweep through the pool with the template
//   ssh -p PORT -i KEY -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes
//       {host} python3 stand_in_runner.py
// with {host} = 127.0.0.1, and checks that every configuration answers through it and names that
// host. Skips with the reason where OpenSSH or python3 is missing (scripts/setup.sh installs them).
// Cannot hang: every wait has a timeout, ssh runs in batch mode with a connect timeout, and sshd
// is killed in cleanup.
#include "runner_command.h"
#include "support/stand_in_runner.h"
#include "sweep_run.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace gemmscope;

namespace {

// A port nobody listens on now (the kernel's choice for port 0), on 127.0.0.1.
int freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    socklen_t len = sizeof addr;
    int port = -1;
    if (::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &len) == 0)
        port = ntohs(addr.sin_port);
    ::close(fd);
    return port;
}

bool accepts(int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return false;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(quint16(port));
    const bool ok = ::connect(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0;
    ::close(fd);
    return ok;
}

bool runTool(const QString &program, const QStringList &args, QString *log)
{
    QProcess p;
    p.start(program, args);
    const bool ok = p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    if (!ok) {
        p.kill();
        p.waitForFinished(2000);
    }
    *log = QString::fromLocal8Bit(p.readAllStandardOutput() + p.readAllStandardError());
    return ok;
}

} // namespace

class TestSweepSsh : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void sweepRunsThroughSsh();
    void cleanupTestCase();

private:
    QTemporaryDir m_dir;
    QProcess m_sshd;
    int m_port = -1;
    QString m_key, m_script;
};

void TestSweepSsh::initTestCase()
{
    const QString sshd = QStringLiteral("/usr/sbin/sshd");
    if (!QFileInfo(sshd).isExecutable())
        QSKIP(
            "/usr/sbin/sshd is missing: install openssh-server (scripts/setup.sh) to test the ssh template");
    for (const char *tool : {"ssh", "ssh-keygen"})
        if (QStandardPaths::findExecutable(QLatin1String(tool)).isEmpty())
            QSKIP(
                qPrintable(QStringLiteral("%1 is missing: install openssh-client (scripts/setup.sh) to test "
                                          "the ssh template")
                               .arg(QLatin1String(tool))));
    m_script = test::standInRunnerPath();
    if (m_script.isEmpty())
        QSKIP("python3 is needed for the scripted stand-in runner");
    QVERIFY(m_dir.isValid());
    const QString hostKey = m_dir.filePath("host_key");
    m_key = m_dir.filePath("client_key");
    QString log;
    for (const QString &key : {hostKey, m_key})
        QVERIFY2(runTool(QStringLiteral("ssh-keygen"), {"-q", "-t", "ed25519", "-N", "", "-f", key}, &log),
                 qPrintable(log));
    QVERIFY(QFile::copy(m_key + ".pub", m_dir.filePath("authorized_keys")));
    // sshd run by root wants its privilege-separation folder (made by the Debian service otherwise).
    if (::geteuid() == 0 && !QDir(QStringLiteral("/run/sshd")).exists())
        QDir().mkpath(QStringLiteral("/run/sshd"));
    m_port = freePort();
    QVERIFY(m_port > 0);
    const QString config = m_dir.filePath("sshd_config");
    QFile c(config);
    QVERIFY(c.open(QIODevice::WriteOnly));
    c.write(QStringLiteral("Port %1\n"
                           "ListenAddress 127.0.0.1\n"
                           "HostKey %2\n"
                           "AuthorizedKeysFile %3\n"
                           "PidFile %4\n"
                           "StrictModes no\n"
                           "UsePAM no\n"
                           "PasswordAuthentication no\n"
                           "KbdInteractiveAuthentication no\n"
                           "PubkeyAuthentication yes\n"
                           "PermitRootLogin prohibit-password\n"
                           "LogLevel VERBOSE\n")
                .arg(m_port)
                .arg(hostKey, m_dir.filePath("authorized_keys"), m_dir.filePath("sshd.pid"))
                .toUtf8());
    c.close();
    m_sshd.setProcessChannelMode(QProcess::MergedChannels);
    m_sshd.start(sshd, {"-D", "-e", "-f", config});
    QVERIFY2(m_sshd.waitForStarted(10000), qPrintable(m_sshd.errorString()));
    QElapsedTimer waited;
    waited.start();
    while (!accepts(m_port) && waited.elapsed() < 15000 && m_sshd.state() == QProcess::Running)
        QTest::qWait(100);
    QVERIFY2(m_sshd.state() == QProcess::Running && accepts(m_port),
             qPrintable(QStringLiteral("sshd did not listen on 127.0.0.1:%1: %2")
                            .arg(m_port)
                            .arg(QString::fromLocal8Bit(m_sshd.readAll()))));
}

void TestSweepSsh::sweepRunsThroughSsh()
{
    // The remote command: the stand-in, with an empty FAKE_HOST so that its `ready` names no host
    // and the client names the runner by the template's {host}, as it does for a runner that does
    // not know its machine; FAKE_LOG proves each configuration reached the far side of ssh.
    const QString log = m_dir.filePath("remote.log");
    const QString text =
        QStringLiteral("ssh -p %1 -i %2 -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null "
                       "-o BatchMode=yes -o ConnectTimeout=10 {host} FAKE_HOST= FAKE_LOG=%3 "
                       "python3 %4")
            .arg(m_port)
            .arg(m_key, log, m_script);
    RunnerTemplateValues values;
    values.host = QStringLiteral("127.0.0.1");
    QString error;
    const std::optional<RunnerCommand> command = parseRunnerTemplate(text, values, &error);
    QVERIFY2(command, qPrintable(error));
    QCOMPARE(command->program, QStringLiteral("ssh"));
    QCOMPARE(command->host, QStringLiteral("127.0.0.1"));

    SweepData sweep;
    sweep.id = QStringLiteral("sweep-ssh");
    sweep.spec.stage = StageId::Final;
    sweep.spec.x = {"BM", {64, 128}};
    sweep.spec.y = {"BN", {64, 128}};
    sweep.spec.fixed = {{"BK", 8}, {"TM", 4}, {"TN", 4}};
    sweep.spec.size = {256, 256, 256};
    sweep.spec.budgetMs = 5;
    SweepRun::Options options;
    options.runners << *command;
    options.window = 2;
    options.journalPath = m_dir.filePath("ssh.gsweep");
    SweepRun run(sweep, options);
    QSignalSpy finished(&run, &SweepRun::finished);
    QVERIFY2(run.start(&error), qPrintable(error));
    QTRY_VERIFY_WITH_TIMEOUT(finished.size() == 1, 60000);
    QCOMPARE(finished.first().first().toBool(), false); // not cancelled, runner not lost

    const SweepPlan plan = planSweep(sweep.spec);
    QVERIFY(unfinishedPoints(plan, run.sweep().runs).isEmpty());
    int timed = 0;
    for (const RunRecord &r : run.sweep().runs) {
        QVERIFY2(r.isOk(), qPrintable(r.errorKind + QStringLiteral(": ") + r.errorMessage));
        QCOMPARE(r.host, QStringLiteral("127.0.0.1")); // the result names the host it ran on
        QCOMPARE(r.gpuName, QStringLiteral("Fake GPU"));
        timed += r.stageKey() == QLatin1String("final");
    }
    QCOMPARE(timed, int(plan.validPointCount()));
    QFile remote(log);
    QVERIFY2(remote.open(QIODevice::ReadOnly), "the remote side wrote no log: nothing went through ssh");
    QCOMPARE(QString::fromUtf8(remote.readAll()).split('\n', Qt::SkipEmptyParts).size(),
             timed + 1); // + cuBLAS
}

void TestSweepSsh::cleanupTestCase()
{
    if (m_sshd.state() != QProcess::NotRunning) {
        m_sshd.kill(); // this test's own sshd, by its process
        m_sshd.waitForFinished(5000);
    }
}

QTEST_MAIN(TestSweepSsh)
#include "tst_sweep_ssh.moc"
