// A user's kernel through the runner's compile path, as a client sends it (no GPU needed): the
// request carries the kernel's source because the encoder fills it for a registered custom stage;
// the runner registers it, compiles the blank kernel for every architecture with its registers,
// refuses includes outside GemmScope's headers before NVRTC sees them, and returns NVRTC's errors
// with the kernel's file name and line.
#include "../support/runner_process.h"
#include "custom_stage.h"
#include "requests.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace gemmscope;

namespace {

std::string blankKernel()
{
    QFile file(QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/../../resources/kernels/blank_kernel.cuh"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read the blank kernel");
    return file.readAll().toStdString();
}

// A compile request for a kernel that is not registered here: its source travels explicitly.
QJsonObject explicitRequest(const QString &id, const std::string &text, const QString &fileName,
                            const QString &stageKey = {})
{
    protocol::CompileJob job;
    job.id = id;
    job.stage = stageKey.isEmpty() ? QString::fromStdString(customStageKey(text)) : stageKey;
    job.kernel = protocol::KernelSource{QString::fromStdString(text), fileName, {}};
    job.arch = QStringLiteral("sm_80");
    return protocol::toJson(job);
}

// The blank kernel with `line` put in place of its first line (a comment): the block still parses.
std::string withFirstLine(const std::string &line)
{
    std::string text = blankKernel();
    return line + text.substr(text.find('\n'));
}

} // namespace

class TestCustomKernelCompile : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(!RunnerProcess::program().isEmpty(), "GEMMSCOPE_RUNNER must name gemmscope-runner");
        QVERIFY(m_cache.isValid());
    }

    // Registered here, the stage key alone is enough: toJson adds the kernel object.
    void encoderCarriesTheRegisteredKernel()
    {
        const CustomStageParse parsed =
            registerCustomKernel({blankKernel(), "blank_kernel.cuh", "smem_tiled"});
        QVERIFY(parsed.stage);
        protocol::RunJob run;
        run.id = QStringLiteral("r");
        run.stage = QString::fromStdString(parsed.stage->key);
        const QJsonObject json = protocol::toJson(run);
        const QJsonObject kernel = json.value(QStringLiteral("kernel")).toObject();
        QCOMPARE(kernel.value(QStringLiteral("source_text")).toString().toStdString(), blankKernel());
        QCOMPARE(kernel.value(QStringLiteral("file_name")).toString(), QStringLiteral("blank_kernel.cuh"));
        QCOMPARE(kernel.value(QStringLiteral("derived_from")).toString(), QStringLiteral("smem_tiled"));
        protocol::RunJob back;
        QString error;
        QVERIFY2(protocol::fromJson(json, back, &error), qPrintable(error));
        QVERIFY(back.kernel);
        QCOMPARE(back.kernel->fileName, QStringLiteral("blank_kernel.cuh"));
        // A built-in stage carries nothing.
        run.stage = QStringLiteral("naive");
        QVERIFY(!protocol::toJson(run).contains(QStringLiteral("kernel")));
    }

    void blankKernelCompilesForEveryArchitecture_data()
    {
        QTest::addColumn<QString>("arch");
        QTest::newRow("sm_75") << QStringLiteral("sm_75");
        QTest::newRow("sm_80") << QStringLiteral("sm_80");
        QTest::newRow("sm_90") << QStringLiteral("sm_90");
    }
    void blankKernelCompilesForEveryArchitecture()
    {
        QFETCH(QString, arch);
        const CustomStageParse parsed = registerCustomKernel({blankKernel(), "blank_kernel.cuh", {}});
        QVERIFY(parsed.stage);
        protocol::CompileJob job;
        job.id = QStringLiteral("blank-") + arch;
        job.stage = QString::fromStdString(parsed.stage->key);
        job.params = ParamValues{{"BM", 32}, {"BN", 16}, {"BK", 8}};
        job.arch = arch;

        RunnerProcess runner(m_cache.path());
        QVERIFY(!runner.start().isEmpty());
        runner.send(protocol::toJson(job));
        const QJsonObject compiled =
            runner.waitFor(job.id, {QStringLiteral("compiled"), QStringLiteral("error")});
        QVERIFY2(compiled.value(QStringLiteral("event")).toString() == QStringLiteral("compiled"),
                 qPrintable(compiled.value(QStringLiteral("message")).toString() + QLatin1Char('\n') +
                            compiled.value(QStringLiteral("log")).toString()));
        QCOMPARE(compiled.value(QStringLiteral("kernel")).toString(),
                 QStringLiteral("gemmscope::my_gemm<32, 16, 8>"));
        QCOMPARE(compiled.value(QStringLiteral("arch")).toString(), arch);
        QVERIFY(compiled.value(QStringLiteral("registers")).toInt() > 0);
        // ptxas's static shared memory is the block's `shared` expression: 4 * (32*8 + 8*16).
        QCOMPARE(compiled.value(QStringLiteral("static_smem_bytes")).toInt(), 4 * (32 * 8 + 8 * 16));
    }

    // A kernel without parameters is a plain __global__ function (docs/protocol.md's example).
    void parameterlessKernelCompiles()
    {
        const std::string text =
            "/* gemmscope:kernel\nname my::k\nblock 32\ngrid ceil_div(N, 32), M\n*/\n"
            "#include \"common.cuh\"\nnamespace my {\n__global__ void k(const float *A, const "
            "float *B, float *C, int M, int N, int K)\n{\n    const int row = blockIdx.y, col "
            "= blockIdx.x * 32 + threadIdx.x;\n    float acc = 0;\n    for (int k = 0; k < K "
            "&& col < N; ++k)\n        acc += A[row * K + k] * B[k * N + col];\n    if (col < "
            "N)\n        GEMMSCOPE_STORE_C(C[row * N + col], acc);\n}\n}\n";
        RunnerProcess runner(m_cache.path());
        QVERIFY(!runner.start().isEmpty());
        runner.send(explicitRequest(QStringLiteral("plain"), text, QStringLiteral("my_k.cuh")));
        const QJsonObject compiled =
            runner.waitFor(QStringLiteral("plain"), {QStringLiteral("compiled"), QStringLiteral("error")});
        QVERIFY2(compiled.value(QStringLiteral("event")).toString() == QStringLiteral("compiled"),
                 qPrintable(compiled.value(QStringLiteral("message")).toString() +
                            compiled.value(QStringLiteral("log")).toString()));
        QCOMPARE(compiled.value(QStringLiteral("kernel")).toString(), QStringLiteral("my::k"));
        QVERIFY(compiled.value(QStringLiteral("registers")).toInt() > 0);
    }

    void includesOutsideTheHeadersAreRefused_data()
    {
        QTest::addColumn<QString>("include");
        QTest::addColumn<QString>("named");
        QTest::newRow("absolute") << QStringLiteral("#include \"/etc/passwd\"")
                                  << QStringLiteral("\"/etc/passwd\"");
        QTest::newRow("parent") << QStringLiteral("#include \"../x.h\"") << QStringLiteral("\"../x.h\"");
        QTest::newRow("system") << QStringLiteral("#include <stdio.h>") << QStringLiteral("<stdio.h>");
    }
    void includesOutsideTheHeadersAreRefused()
    {
        QFETCH(QString, include);
        QFETCH(QString, named);
        RunnerProcess runner(m_cache.path());
        QVERIFY(!runner.start().isEmpty());
        runner.send(explicitRequest(QStringLiteral("inc"), withFirstLine(include.toStdString()),
                                    QStringLiteral("evil.cuh")));
        const QJsonObject error =
            runner.waitFor(QStringLiteral("inc"), {QStringLiteral("compiled"), QStringLiteral("error")});
        QCOMPARE(error.value(QStringLiteral("event")).toString(), QStringLiteral("error"));
        QCOMPARE(error.value(QStringLiteral("kind")).toString(), QStringLiteral("invalid_config"));
        const QString message = error.value(QStringLiteral("message")).toString();
        QVERIFY2(message.startsWith(QStringLiteral("evil.cuh:1: This line includes ") + named),
                 qPrintable(message));
    }

    // A key that is not the text's, and a block with a problem: refused before anything compiles.
    void inconsistentOrBrokenKernelsAreRefused()
    {
        RunnerProcess runner(m_cache.path());
        QVERIFY(!runner.start().isEmpty());
        runner.send(explicitRequest(QStringLiteral("key"), blankKernel(), QStringLiteral("k.cuh"),
                                    QStringLiteral("user-0123456789abcdef")));
        QJsonObject error =
            runner.waitFor(QStringLiteral("key"), {QStringLiteral("compiled"), QStringLiteral("error")});
        QCOMPARE(error.value(QStringLiteral("kind")).toString(), QStringLiteral("invalid_config"));
        QVERIFY2(error.value(QStringLiteral("message"))
                     .toString()
                     .contains(QStringLiteral("not that stage's text")),
                 qPrintable(error.value(QStringLiteral("message")).toString()));

        std::string broken = blankKernel();
        broken.replace(broken.find("default 16"), 10, "default 12");
        runner.send(explicitRequest(QStringLiteral("block"), broken, QStringLiteral("k.cuh")));
        error =
            runner.waitFor(QStringLiteral("block"), {QStringLiteral("compiled"), QStringLiteral("error")});
        QCOMPARE(error.value(QStringLiteral("kind")).toString(), QStringLiteral("invalid_config"));
        // One sentence at the parameter's line; the expressions that use BM add none.
        QCOMPARE(
            error.value(QStringLiteral("message")).toString(),
            QStringLiteral("k.cuh:21: The default of BM (12) is not on its steps: 8 plus a multiple of 8."));

        protocol::CompileJob unknown;
        unknown.id = QStringLiteral("unknown");
        unknown.stage = QStringLiteral("user-0123456789abcdef");
        unknown.arch = QStringLiteral("sm_80");
        runner.send(protocol::toJson(unknown));
        error =
            runner.waitFor(QStringLiteral("unknown"), {QStringLiteral("compiled"), QStringLiteral("error")});
        QCOMPARE(error.value(QStringLiteral("kind")).toString(), QStringLiteral("invalid_config"));
        QVERIFY(error.value(QStringLiteral("message"))
                    .toString()
                    .contains(QStringLiteral("must carry its source")));
    }

    // NVRTC's error names the user's file and the line in it.
    void compileErrorsNameTheFileAndLine()
    {
        std::string text = blankKernel();
        const std::string statement = "        acc += tileA[ty][k] * tileB[k][tx];";
        const std::size_t at = text.find(statement);
        QVERIFY(at != std::string::npos);
        text.replace(at, statement.size(), "        acc += undefined_name;");
        const int line = 1 + int(std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n'));

        RunnerProcess runner(m_cache.path());
        QVERIFY(!runner.start().isEmpty());
        runner.send(explicitRequest(QStringLiteral("bad"), text, QStringLiteral("my_gemm.cuh")));
        const QJsonObject error =
            runner.waitFor(QStringLiteral("bad"), {QStringLiteral("compiled"), QStringLiteral("error")});
        QCOMPARE(error.value(QStringLiteral("kind")).toString(), QStringLiteral("compile_error"));
        const QString log = error.value(QStringLiteral("log")).toString();
        const QString expected = QStringLiteral("my_gemm.cuh(%1): error").arg(line);
        QVERIFY2(log.contains(expected), qPrintable(expected + QStringLiteral(" not in:\n") + log));
        QVERIFY(log.contains(QStringLiteral("undefined_name")));
    }

private:
    QTemporaryDir m_cache;
};

QTEST_GUILESS_MAIN(TestCustomKernelCompile)
#include "tst_custom_kernel_compile.moc"
