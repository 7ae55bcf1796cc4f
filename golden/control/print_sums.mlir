entry @print_sums(%arg0: tile<ptr<i32>>, %arg1: tile<ptr<i32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<i32>>
  %5 = make_tensor_view %4, shape = [256], strides = [1] : tensor_view<256xi32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(64), padding_value = zero, tensor_view<256xi32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(64), padding_value = zero, tensor_view<256xi32, strides=[1]>>, tile<i32> -> tile<64xi32>, token
  %9 = reduce %7 dim=0 identities=[0 : i32] : tile<64xi32> -> tile<i32> 
  (%10: tile<i32>, %11: tile<i32>) {
    %12 = addi %10, %11 : tile<i32>
    yield %12 : tile<i32>
  }
  %13 = print_tko "block %d: sum %d\0A", %1, %9 token=%8 : tile<i32>, tile<i32> -> token
  %14 = reshape %9 : tile<i32> -> tile<1xi32>
  %15 = assume div_by<16>, %arg1 : tile<ptr<i32>>
  %16 = make_tensor_view %15, shape = [4], strides = [1] : tensor_view<4xi32, strides=[1]>
  %17 = make_partition_view %16 : partition_view<tile=(1), padding_value = zero, tensor_view<4xi32, strides=[1]>>
  %18 = store_view_tko weak %14, %17[%1] token = %13 : tile<1xi32>, partition_view<tile=(1), padding_value = zero, tensor_view<4xi32, strides=[1]>>, tile<i32> -> token
  return
}
