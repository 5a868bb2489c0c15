#[global_allocator]
static ALLOCATOR: algchess::Counting = algchess::Counting;

fn main() {
    std::process::exit(algchess::cli::main());
}
