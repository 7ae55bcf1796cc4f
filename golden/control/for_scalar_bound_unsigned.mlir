entry @for_scalar_bound_unsigned(%arg0: tile<ptr<i32>>, %arg1: tile<i32>, %arg2: tile<ptr<i32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = constant <i32: 0> : tile<i32>
  %5 = constant <i32: 1> : tile<i32>
  %6 = constant <i32: 0> : tile<256xi32>
  %7, %8 = for unsigned %9 in (%4 to %arg1, step %5) : tile<i32> iter_values(%10 = %6, %11 = %0) -> (tile<256xi32>, token) {
    %12 = assume div_by<16>, %arg0 : tile<ptr<i32>>
    %13 = make_tensor_view %12, shape = [4096], strides = [1] : tensor_view<4096xi32, strides=[1]>
    %14 = make_partition_view %13 : partition_view<tile=(256), padding_value = zero, tensor_view<4096xi32, strides=[1]>>
    %15, %16 = load_view_tko weak %14[%9] token = %11 : partition_view<tile=(256), padding_value = zero, tensor_view<4096xi32, strides=[1]>>, tile<i32> -> tile<256xi32>, token
    %17 = addi %10, %15 : tile<256xi32>
    continue %17, %16 : tile<256xi32>, token
  }
  %18 = assume div_by<16>, %arg2 : tile<ptr<i32>>
  %19 = make_tensor_view %18, shape = [256], strides = [1] : tensor_view<256xi32, strides=[1]>
  %20 = make_partition_view %19 : partition_view<tile=(256), padding_value = zero, tensor_view<256xi32, strides=[1]>>
  %21 = store_view_tko weak %7, %20[%1] token = %8 : tile<256xi32>, partition_view<tile=(256), padding_value = zero, tensor_view<256xi32, strides=[1]>>, tile<i32> -> token
  return
}
