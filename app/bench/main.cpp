// gemmscope-bench: the worklog's ladder measured headlessly through gemmscope-runner — the same
// protocol and process the GUI uses — with cuBLAS FP32 timed in the same runner session first.
//
// Exit status: 0 every row ran; 1 a bad option, no runner or the JSON could not be written (an
// existing file is then left as it was); 2 no GPU, or a --kernel file that cannot be measured; 3
// some rows failed (the table and the JSON still hold every row).
//
// main() only dispatches: the command line is read in bench_options.cpp, and each mode is its own
// command (ladder_mode, profile_mode, grid_sweep_mode, size_sweep_mode), parsed once and run.
#include "bench_console.h"
#include "bench_options.h"
#include "grid_sweep_mode.h"
#include "ladder_mode.h"
#include "profile_mode.h"
#include "size_sweep_mode.h"

#include <QCoreApplication>

using namespace gemmscope::bench;

namespace {

// A command read from the command line is run; a refused one says why and ends with its status.
template <class Command> int run(const Parsed<Command> &parsed)
{
    if (const auto *refused = std::get_if<OptionError>(&parsed)) {
        printError(refused->message);
        return refused->exitCode;
    }
    return std::get<Command>(parsed).run();
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("gemmscope-bench"));
    BenchCommandLine commandLine;
    commandLine.process(app);
    const BenchOptions &o = commandLine.options;
    switch (commandLine.mode()) {
    case BenchMode::SweepStatus:
        return printSweepStatus(commandLine.value(o.sweepStatus), commandLine.value(o.journal));
    case BenchMode::SizeSweep:
        return run(parseSizeSweep(commandLine));
    case BenchMode::Sweep:
        return run(parseGridSweep(commandLine));
    case BenchMode::Profile:
        return run(ProfileCommand::parse(commandLine));
    case BenchMode::Ladder:
        break;
    }
    return run(LadderCommand::parse(commandLine));
}
