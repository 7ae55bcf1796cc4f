entry @dyn_div_by_length(%arg0: tile<ptr<f32>>, %arg1: tile<ptr<f32>>, %arg2: tile<i32>, %arg3: tile<i32>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f32>>
  %5 = make_tensor_view %4, shape = [%arg2], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> tile<128xf32>, token
  %9 = get_tensor_shape %5 : tensor_view<?xf32, strides=[1]> -> tile<i32>
  %10 = itof %9 signed  : tile<i32> -> tile<f32>
  %11 = reshape %10 : tile<f32> -> tile<1xf32>
  %12 = broadcast %11 : tile<1xf32> -> tile<128xf32>
  %13 = divf %7, %12  : tile<128xf32>
  %14 = assume div_by<16>, %arg1 : tile<ptr<f32>>
  %15 = make_tensor_view %14, shape = [%arg3], strides = [1] : tile<i32> -> tensor_view<?xf32, strides=[1]>
  %16 = make_partition_view %15 : partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>>
  %17 = store_view_tko weak %13, %16[%1] token = %8 : tile<128xf32>, partition_view<tile=(128), padding_value = zero, tensor_view<?xf32, strides=[1]>>, tile<i32> -> token
  return
}
