// Test helper: the one stand-in for gemmscope-runner the tests use, tests/support/stand_in_runner.py
// (a python3 script; what it does, chosen by FAKE_* environment variables, is described at its top).
#pragma once

#include "runner_command.h"

#include <QDir>
#include <QMap>
#include <QStandardPaths>
#include <QString>

namespace gemmscope::test {

// The stand-in's path (an executable script), or an empty string where python3 is missing: the test
// then skips with that reason. Found beside the test data (GEMMSCOPE_TEST_DATA_DIR is tests/data):
// one more path on every test's command line would make each build tree recompile every test.
inline QString standInRunnerPath()
{
    if (QStandardPaths::findExecutable(QStringLiteral("python3")).isEmpty())
        return {};
    return QDir::cleanPath(QStringLiteral(GEMMSCOPE_TEST_DATA_DIR "/../support/stand_in_runner.py"));
}

// The stand-in as RunnerClient and SweepRun start it: python3 with the script, and `environment`
// (FAKE_* variables) added to the test's own.
inline RunnerCommand standInRunner(const QMap<QString, QString> &environment = {})
{
    RunnerCommand command;
    command.program = QStringLiteral("python3");
    command.arguments = {standInRunnerPath()};
    command.environment = environment;
    command.label = QStringLiteral("stand-in");
    return command;
}

} // namespace gemmscope::test
