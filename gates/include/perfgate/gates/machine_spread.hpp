#pragma once
// Noise across machines (docs/gate.md, "Machines"). Machines of one kind differ by more than the
// runs of one machine do (H200: llama-3.1-8b decode 0.62% between runs of a machine, 0.68% between
// machines), so a run on a machine the history has never seen can only be judged against how far
// machines land from each other. This is the one-way random-effects split of the history's log run
// levels into a within-machine and a between-machine variance (method of moments), and the
// prediction of where an unchanged run of a new machine lands.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace perfgate::gates {

// The run levels (RunLevel::value) of one machine for one pair and metric, oldest first.
struct MachineLevels {
    std::string machine;
    std::vector<double> levels;
};

struct MachineSpread {
    std::size_t machines = 0;
    std::size_t runs = 0;
    double centre = 0;   // mean over machines of each machine's mean log level (each machine counts once)
    double within = 0;   // pooled SD of log run levels within a machine
    double between = 0;  // SD of the machines' true levels (the variance component, >= 0)
    // SD of where one unchanged run of an unseen machine lands around `centre`: between, within
    // and the uncertainty of `centre` itself.
    double predictive = 0;
    // Degrees of freedom of `predictive` (Satterthwaite's, from the between-machine mean square's
    // machines - 1 and the within one's runs - machines): at least machines - 1.
    double df = 0;
};

// The smallest number of machines whose spread is read off the history (issue 24: three).
inline constexpr std::size_t kMinMachinesForSpread = 3;

// nullopt with fewer than `min_machines` machines that have a positive level, or when a level is
// not positive. Machines with one run count towards the between-machine spread only.
std::optional<MachineSpread> machine_spread(const std::vector<MachineLevels>& machines,
                                            std::size_t min_machines = kMinMachinesForSpread);

}  // namespace perfgate::gates
