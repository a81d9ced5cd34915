#include "perfgate/core/host_record.hpp"

namespace perfgate {

const std::vector<HostRecordField>& host_record_fields() {
    using H = HostRecord;
    // "host_tag": the host-context file's name for the tag (the CSV column is "host").
    static const std::vector<HostRecordField> fields = {
        {"hardware", &H::hardware},
        {"hip_version", &H::hip_version},
        {"host_tag", &H::host},
        {"device", &H::device},
        {"device_arch", &H::device_arch},
        {"device_memory_bytes", &H::device_memory_bytes},
        {"device_memory_source", &H::device_memory_source},
        {"uma", &H::uma},
        {"host_memory_bytes", &H::host_memory_bytes},
        {"rocm_version", &H::rocm_version},
        {"cuda_version", &H::cuda_version},
        {"driver_version", &H::driver_version},
        {"os", &H::os},
        {"kernel", &H::kernel},
        {"cpu_model", &H::cpu_model},
        {"machine_id", &H::machine_id},
        {"machine_fingerprint", &H::machine_fingerprint},
    };
    return fields;
}

}  // namespace perfgate
